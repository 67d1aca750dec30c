import os from 'node:os'
import path from 'node:path'
import { rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { sql } from 'drizzle-orm'
import { buildApp } from '../server/app'
import { selectRows } from '../server/db/rows'
import { EXPORT_PAGE } from '../server/modules/exports/service'
import { benchUrl, dropBenchDatabase, recreateBenchDatabase } from './lib/database'
import { writeResultFiles } from './lib/report'
import { numberArg } from './lib/args'

/**
 * `npm run bench -- --only export`: what exporting a big account holds in memory. Seeds one member with --posts
 * posts (default 100,000; SQL generate_series, so seeding is seconds), on PostgreSQL when DATABASE_URL is set (a
 * database of its own, dropped after), else on PGlite; then runs the export job (account.export) for a tenth of the
 * posts and for all of them, sampling the heap and RSS every 20 ms. The target: the archive is written page by page
 * (EXPORT_PAGE rows), so the peak growth of the heap stays about the same for ten times the posts.
 */

const DATABASE = 'wren_bench_export'
const arg = numberArg
const totalPosts = arg('posts', 100_000)
const onPostgres = Boolean(process.env.DATABASE_URL)
const resultsDir = fileURLToPath(new URL('./results', import.meta.url))
const MB = 1024 * 1024

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

interface Run {
  posts: number
  seconds: number
  zipMB: number
  heapGrowthMB: number
  rssGrowthMB: number
}

async function main() {
  const loadBefore = os.loadavg()[0] ?? 0
  const dataDir = path.join(os.tmpdir(), `wren-bench-export-${process.pid}`)
  if (onPostgres) await recreateBenchDatabase(DATABASE)
  const app = await buildApp({
    config: { ...(onPostgres ? { databaseUrl: benchUrl(undefined, DATABASE) } : {}), dataDir, rateLimits: false, logLevel: 'silent' },
    logger: false,
  })
  const runs: Run[] = []
  try {
    const db = app.services.db
    for (const posts of [Math.round(totalPosts / 10), totalPosts]) {
      const username = `exporter_${posts}`
      const [user] = await selectRows<{ id: string }>(
        db,
        sql`insert into users (id, username, email, display_name, password_hash)
            values (gen_random_uuid(), ${username}, ${`${username}@bench.invalid`}, ${`Exporter ${posts}`}, 'x') returning id`,
      )
      if (!user) throw new Error('no member')
      const seeded = Date.now()
      await db.execute(
        sql`insert into posts (id, author_id, content, created_at)
            select gen_random_uuid(), ${user.id}, 'Post number ' || g || ': ' || repeat('a few words of text ', 8),
                   now() - (g || ' seconds')::interval
            from generate_series(1, ${posts}) g`,
      )
      console.log(`seeded ${posts} posts in ${((Date.now() - seeded) / 1000).toFixed(1)} s`)
      const [row] = await selectRows<Record<string, unknown>>(db, sql`select * from users where id = ${user.id}`)

      gc()
      const base = process.memoryUsage()
      let peakHeap = base.heapUsed
      let peakRss = base.rss
      const sampler = setInterval(() => {
        const m = process.memoryUsage()
        peakHeap = Math.max(peakHeap, m.heapUsed)
        peakRss = Math.max(peakRss, m.rss)
      }, 20)
      const started = performance.now()
      const asked = await app.services.exports.request({ ...(row as object), id: user.id } as never)
      await app.services.jobs.drain()
      const seconds = (performance.now() - started) / 1000
      clearInterval(sampler)
      const [done] = await app.services.exports.list({ id: user.id } as never)
      if (done?.id !== asked.id || done.status !== 'ready') throw new Error(`the export did not finish: ${JSON.stringify(done)}`)
      const run: Run = {
        posts,
        seconds: Number(seconds.toFixed(2)),
        zipMB: Number(((done.size ?? 0) / MB).toFixed(1)),
        heapGrowthMB: Number(((peakHeap - base.heapUsed) / MB).toFixed(1)),
        rssGrowthMB: Number(((peakRss - base.rss) / MB).toFixed(1)),
      }
      console.log(run)
      runs.push(run)
    }
  } finally {
    await app.close()
    await rm(dataDir, { recursive: true, force: true })
    if (onPostgres) await dropBenchDatabase(DATABASE).catch(() => undefined)
  }

  const [small, big] = runs
  const flat = small && big ? big.heapGrowthMB <= Math.max(small.heapGrowthMB * 2, small.heapGrowthMB + 16) : false
  const date = new Date().toISOString().slice(0, 10)
  const markdown = [
    `# Export bench, ${date}`,
    '',
    '| posts | time (s) | zip (MB) | peak heap growth (MB) | peak RSS growth (MB) |',
    '|---:|---:|---:|---:|---:|',
    ...runs.map((r) => `| ${r.posts.toLocaleString('en')} | ${r.seconds} | ${r.zipMB} | ${r.heapGrowthMB} | ${r.rssGrowthMB} |`),
    '',
    '## Targets',
    '',
    `- ${flat ? 'PASS' : 'FAIL'} memory flat: the heap grows about as much for ${big?.posts ?? '?'} posts as for ${small?.posts ?? '?'} (it holds a page of ${EXPORT_PAGE} rows, not the account)`,
    '',
    '## Settings and machine',
    '',
    `- database: ${onPostgres ? 'PostgreSQL' : 'PGlite'}`,
    `- page: ${EXPORT_PAGE} rows`,
    `- load average before: ${loadBefore.toFixed(2)} (${os.cpus().length} cores)`,
    `- node: ${process.version}`,
    '',
  ].join('\n')
  const files = await writeResultFiles(resultsDir, date, 'export', { date, runs, flat, database: onPostgres ? 'postgresql' : 'pglite', loadBefore }, markdown)
  console.log(`\n${markdown}\nwrote ${files.markdown}`)
  if (!flat) process.exitCode = 1
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
