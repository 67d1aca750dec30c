import { Effect } from 'effect'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { buildApp } from '../server/app'
import { deriveSecrets, freshKdf } from '../src/crypto/kdf'
import { listen } from './lib/app-http'
import { benchUrl, dropBenchDatabase, recreateBenchDatabase } from './lib/database'
import type { FetchLoadRequest, FetchRequest } from './lib/fetch-load-worker'
import { type LoadResult, runWorker } from './lib/load'
import { type Check, fromHttp, type Scenario, simpleMarkdown, writeResultFiles } from './lib/report'
import { numberArg } from './lib/args'
import { postgresCpuMs } from './lib/msg-cpu'
import { profiled } from './lib/cpu-profile'
import { textPostRequest, textPostRequests } from './lib/text-posts'

/**
 * `npm run bench -- --only writes`: what the three commonest writes cost at 50 connections, each on its own, on
 * PostgreSQL, with the load generator in a child process:
 * - **posts**: 50 members publishing text posts in turn;
 * - **likes spread**: the same members liking and unliking 20 posts (each request toggles one member's like);
 * - **likes on one hot post**: every member toggling their like of one post, the viral case, where every like meets
 *   the same rows (the post's counters, its author's grouped notification, the post's analytics row for the day).
 * After the hot run the bench checks the counts are exact: the post's like count, its analytics row for the day and
 * the likes table agree. Targets: a like's p50 at most a post's; the hot post takes at least 1,000 likes a second.
 */

const DATABASE = 'wren_bench_writes'
const MEMBERS = 50
const SPREAD_POSTS = 20
const arg = numberArg
const durationSeconds = arg('duration', 10)
const warmupRequests = arg('warmup', 500)
const connections = arg('connections', 50)
/** `--profile DIR`: a CPU profile of the app per scenario, written to DIR, its top buckets printed. */
const profileAt = process.argv.indexOf('--profile')
const profileDir = profileAt >= 0 ? process.argv[profileAt + 1] : undefined
const resultsDir = fileURLToPath(new URL('./results', import.meta.url))
const workerFile = fileURLToPath(new URL('./lib/fetch-load-worker.ts', import.meta.url))

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** Every member's like of every post, interleaved so consecutive requests touch different posts and members. */
function likeRequests(tokens: string[], postIds: string[]): FetchRequest[] {
  return tokens.flatMap((token, m) =>
    postIds.map((_, p) => ({
      path: `/api/posts/${postIds[(p + m) % postIds.length]}/like`,
      method: 'POST' as const,
      headers: bearer(token),
    })),
  )
}

async function register(base: string, n: number, secrets: { authSecret: string; kdf: unknown }): Promise<string> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `writes_${n}`, email: `writes_${n}@bench.invalid`, displayName: `Writes ${n}`, ...secrets }),
  })
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { token: string }).token
}

async function publish(base: string, token: string, text: string): Promise<string> {
  const { path: url, headers, body } = textPostRequest(token, text)
  const res = await fetch(`${base}${url}`, { method: 'POST', headers, body })
  if (res.status !== 201) throw new Error(`createPost answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { post: { id: string } }).post.id
}

/** The post's like count, its likes for today in the analytics, and its rows in `likes`: equal when exact. */
async function likeCounts(databaseUrl: string, postId: string): Promise<{ counter: number; today: number; rows: number }> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ counter: number; today: number; rows: number }>(
      `select p.like_count as counter,
              coalesce((select likes from post_daily_stats s where s.post_id = p.id and s.day = (now() at time zone 'utc')::date), 0) as today,
              (select count(*)::int from likes l where l.post_id = p.id) as rows
       from posts p where p.id = $1`,
      [postId],
    )
    const row = rows[0]
    if (!row) throw new Error('the hot post is gone')
    return row
  } finally {
    await client.end()
  }
}

async function main() {
  await recreateBenchDatabase(DATABASE)
  const databaseUrl = benchUrl(undefined, DATABASE)
  const dataDir = path.join(os.tmpdir(), `wren-bench-writes-${process.pid}`)
  const loadBefore = os.loadavg()[0] ?? 0
  const scenarios: Scenario[] = []
  let counts: { counter: number; today: number; rows: number } | undefined
  try {
    const app = await buildApp({ config: { databaseUrl, dataDir, rateLimits: false, logLevel: 'silent' }, logger: false })
    try {
      const base = await listen(app)
      // One derivation for every member: the server hashes each registration on its own anyway.
      const secrets = await Effect.runPromise(deriveSecrets('Bench password 1', freshKdf()))
      const tokens: string[] = []
      for (let n = 0; n < MEMBERS; n += 1) tokens.push(await register(base, n, { authSecret: secrets.authSecret, kdf: secrets.kdf }))
      const author = tokens[0] ?? ''
      const spread: string[] = []
      for (let n = 0; n < SPREAD_POSTS; n += 1) spread.push(await publish(base, author, `Spread post ${n}`))
      const hot = await publish(base, author, 'The post everyone likes')

      const load = async (name: string, requests: FetchRequest[], note: string) => {
        const request: FetchLoadRequest = { base, requests, ok: [200, 201], connections, warmupRequests, durationSeconds }
        // CPU per request, the app's (this process; the load runs in a child) and its database backends': what a
        // write costs whatever else the machine is doing, where a rate depends on what the cores are left to do.
        const appBefore = process.cpuUsage()
        const dbBefore = await postgresCpuMs(DATABASE)
        const run = () => runWorker<FetchLoadRequest, LoadResult>(workerFile, request)
        let result: LoadResult
        if (profileDir) {
          const file = path.join(profileDir, `writes-${name.split(' ').join('-')}.cpuprofile`)
          const profile = await profiled(file, run)
          result = profile.result
          console.log(`${name}, where the app's time went:`, profile.summary.slice(0, 15).map((p) => `${p.where} ${(p.share * 100).toFixed(1)}%`).join(', '))
        } else {
          result = await run()
        }
        const app = process.cpuUsage(appBefore)
        const dbMs = (await postgresCpuMs(DATABASE)) - dbBefore
        const served = result.requests + warmupRequests
        const cpu = `CPU per request: app ${((app.user + app.system) / 1000 / served).toFixed(2)} ms, database ${(dbMs / served).toFixed(2)} ms`
        scenarios.push(fromHttp(name, result, `${note}; ${cpu}`))
        console.log(`${name}: ${Math.round(result.requestsPerSecond)}/s, p50 ${result.p50} ms, p99 ${result.p99} ms; ${cpu}`)
      }
      await load('posts', textPostRequests(tokens), `${MEMBERS} members in turn`)
      await load('likes spread over 20 posts', likeRequests(tokens, spread), `${MEMBERS} members x ${SPREAD_POSTS} posts, each request toggles one like`)
      await load('likes on one hot post', likeRequests(tokens, [hot]), `${MEMBERS} members toggling their like of one post`)
      // Whatever the server defers, the counts must be exact once the burst has settled.
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      counts = await likeCounts(databaseUrl, hot)
    } finally {
      await app.close()
    }
  } finally {
    await dropBenchDatabase(DATABASE)
  }

  const byName = (name: string) => {
    const found = scenarios.find((s) => s.name === name)
    if (!found) throw new Error(`no scenario ${name}`)
    return found
  }
  const post = byName('posts')
  const like = byName('likes spread over 20 posts')
  const hot = byName('likes on one hot post')
  const checks: Check[] = [
    { name: "a like's p50 at most a post's", pass: like.p50 <= post.p50, detail: `${like.p50} ms vs ${post.p50} ms (${(like.p50 / post.p50).toFixed(2)} x)` },
    { name: 'a hot post takes at least 1,000 likes a second', pass: hot.rate >= 1_000, detail: `${Math.round(hot.rate)} likes/s, p99 ${hot.p99} ms` },
    {
      name: "the hot post's counts are exact once settled",
      pass: Boolean(counts && counts.counter === counts.rows && counts.today === counts.rows),
      detail: counts ? `like_count ${counts.counter}, today's analytics ${counts.today}, likes rows ${counts.rows}` : 'not read',
    },
    { name: 'no failed request', pass: scenarios.every((s) => s.failures === 0), detail: scenarios.map((s) => `${s.name}: ${s.failures}`).join('; ') },
  ]
  const date = new Date().toISOString().slice(0, 10)
  const environment = {
    cpus: os.cpus().length,
    node: process.version,
    loadAverage1mBefore: Number(loadBefore.toFixed(2)),
    loadAverage1mAfter: Number((os.loadavg()[0] ?? 0).toFixed(2)),
  }
  const settings = { members: MEMBERS, spreadPosts: SPREAD_POSTS, connections, durationSeconds, warmupRequests }
  const report = { date, environment, settings, scenarios, checks }
  const markdown = simpleMarkdown(`Writes at ${connections} connections, ${date}`, scenarios, checks, { ...settings, ...environment })
  const files = await writeResultFiles(resultsDir, date, 'writes', report, markdown)
  console.log(markdown)
  console.log(`written: ${files.markdown}`)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
