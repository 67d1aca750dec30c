import { parseArgs } from 'node:util'
import { POOL_IDLE_MS, POOL_MAX } from '../server/db/client'
import { benchUrl } from './lib/database'
import { findViewer, openSqlFeed } from './lib/sql-feed'

/**
 * `npx tsx bench/idle.ts` (on a database kept with `npm run bench -- --keep-db`): what a quiet spell costs the first
 * requests after it, with pg's default idle timeout (10 s) and with the app's (server/db/client.ts). Each pool of
 * the app's size is warmed (every connection has run the feed page often enough for its generic plans), left idle
 * for --quiet seconds, then hit with one burst of as many pages as it has connections.
 */

const { values } = parseArgs({ options: { quiet: { type: 'string', default: '15' } } })
const quietMs = Number(values.quiet) * 1000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function burst(page: () => Promise<number>, n: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const started = performance.now()
      await page()
      return performance.now() - started
    }),
  )
}

async function measure(label: string, idleTimeoutMillis: number) {
  const feed = openSqlFeed(benchUrl(), POOL_MAX, idleTimeoutMillis)
  try {
    const viewer = await findViewer(feed.db, 'demo_reader')
    const page = () => feed.page(viewer)
    for (let i = 0; i < 10; i += 1) await burst(page, POOL_MAX)
    const warm = await burst(page, POOL_MAX)
    await sleep(quietMs)
    const after = await burst(page, POOL_MAX)
    const fmt = (xs: number[]) => `max ${Math.max(...xs).toFixed(1)} ms, mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1)} ms`
    console.log(`${label}: warm burst ${fmt(warm)}; after ${quietMs / 1000} s idle ${fmt(after)}`)
  } finally {
    await feed.close()
  }
}

await measure('idleTimeoutMillis 10 s (pg default)', 10_000)
await measure(`idleTimeoutMillis ${POOL_IDLE_MS / 1000} s (app)`, POOL_IDLE_MS)
