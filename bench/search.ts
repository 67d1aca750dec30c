import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../server/app'
import { DEMO_PASSWORD } from '../server/seed/run'
import {
  BENCH_DATABASE,
  benchDatabaseExists,
  benchUrl,
  checkBenchDatabaseName,
  dropBenchDatabase,
  serverVersion,
} from './lib/database'
import { measureHttp } from './lib/load'
import { measureLoop } from './lib/loop'
import { type Check, fromHttp, fromLoop, scenarioTable, type Scenario, warmupTable, writeResultFiles } from './lib/report'
import { ensureRareWord, type NotificationSummary, pickSearchTargets, seedNotifications, type SearchTargets } from './lib/search-setup'
import { seedBenchDatabase } from './lib/seeded'
import { findViewer } from './lib/sql-feed'
import { openSqlSearch } from './lib/sql-search'

/**
 * `npm run bench -- --only search`: search, trends and notifications at scale.
 *
 * On the seeded 1M-post database (the feed bench's `wren_bench` when bench/run.ts runs both: one seed for the two),
 * each endpoint over HTTP through the real app (buildApp, rate limits off, logger off; autocannon in a child process)
 * and the same SQL through `pg` alone (the modules' own query functions), at 20 connections after a warm-up, 10 s
 * each: post search for a common word, a rare word, two words and a hashtag; member search by a two-letter prefix
 * and by a display-name fragment; hashtag search; trends through the app (its 30 s cache), through an app with
 * caches off, and raw; the notifications page of a member with tens of thousands of items. Then the targets and
 * bench/results/<date>-search.{json,md} with EXPLAIN (ANALYZE, BUFFERS) of the common-word search.
 *
 * Flags: --database NAME (wren_bench), --reuse-db (use the kept database if it exists, else seed it), --keep-db,
 * --posts N, --users N (when seeding), --duration S (10), --warmup N (10 requests per connection), --connections N (20).
 */

const resultsDir = fileURLToPath(new URL('./results', import.meta.url))
const log = (line: string) => console.log(line)

function options() {
  const { values } = parseArgs({
    options: {
      database: { type: 'string', default: BENCH_DATABASE },
      posts: { type: 'string', default: '1000000' },
      users: { type: 'string', default: '20000' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '10' },
      connections: { type: 'string', default: '20' },
      'keep-db': { type: 'boolean', default: false },
      'reuse-db': { type: 'boolean', default: false },
    },
    strict: true,
  })
  const number = (name: string, raw: string, min: number, max: number) => {
    const n = Number(raw)
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`)
    return n
  }
  return {
    database: checkBenchDatabaseName(values.database),
    posts: number('posts', values.posts, 1_000, 20_000_000),
    users: number('users', values.users, 10, 1_000_000),
    duration: number('duration', values.duration, 1, 120),
    warmup: number('warmup', values.warmup, 0, 1_000),
    connections: number('connections', values.connections, 1, 80),
    keepDb: values['keep-db'],
    reuseDb: values['reuse-db'],
  }
}

/** The member whose searches are measured (an ordinary member: visibility checks as most pay them). */
const SEARCHER = 'demo_member'
/** The member whose notifications are measured: followed by ~80% of members, liked thousands of times. */
const NOTIFIED = 'demo_star'
/** Member search: a two-letter prefix (too short for the trigram index) and a fragment inside last names (Nakamura). */
const USER_QUERIES = { prefix: 'al', fragment: 'amura' } as const
const HASHTAG_PREFIX = 'ph'

const TARGETS = { posts: 50, users: 20, trends: 20, notifications: 20 } as const

async function login(base: string, username: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  })
  if (res.status !== 200) throw new Error(`login ${username} answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { token: string }).token
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return `http://127.0.0.1:${address.port}`
}

/** One request before loading: the endpoint answers 200, and how many items its first page has. */
async function probe(url: string, token: string, list: string): Promise<number> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`)
  const body = (await res.json()) as Record<string, unknown>
  const items = body[list]
  return Array.isArray(items) ? items.length : 0
}

interface Pair {
  /** Scenario name without the "HTTP"/"SQL" prefix. */
  name: string
  group: keyof typeof TARGETS | 'hashtags'
  path: string
  list: string
  token: string
  sql: () => Promise<unknown>
  note: string
}

async function main() {
  const o = options()
  const url = benchUrl(undefined, o.database)
  const loadBefore = os.loadavg()[0] ?? 0
  const started = Date.now()
  const scenarios: Scenario[] = []
  const plans: Record<string, string> = {}

  let seed: Record<string, unknown>
  if (o.reuseDb && (await benchDatabaseExists(o.database))) {
    log(`Reusing ${o.database} (--reuse-db)`)
    seed = { reused: o.database }
  } else {
    log(`Seeding ${o.database}: ${o.users.toLocaleString('en-US')} members, ${o.posts.toLocaleString('en-US')} posts...`)
    const result = await seedBenchDatabase(o.database, o.users, o.posts, (l) => log(`  ${l}`))
    if (result.problems.length > 0) throw new Error(`seeded counters disagree: ${result.problems.join('; ')}`)
    seed = { users: o.users, posts: o.posts, rows: result.rows, seconds: result.seconds }
  }

  const sqlSearch = openSqlSearch(url, o.connections)
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wren-bench-search-'))
  let targets: SearchTargets
  let notified: NotificationSummary
  let app: FastifyInstance | undefined
  let cold: FastifyInstance | undefined
  try {
    log(`Adding the rare word to a few dozen posts, picking words from the seeded text...`)
    await ensureRareWord(sqlSearch.db)
    targets = await pickSearchTargets(sqlSearch.db)
    for (const [k, v] of Object.entries(targets)) {
      if (typeof v === 'object') log(`  ${k}: "${v.word}" in ${v.posts.toLocaleString('en-US')} posts (${(v.share * 100).toFixed(v.share < 0.001 ? 4 : 2)}%)`)
    }
    const searcher = await findViewer(sqlSearch.db, SEARCHER)
    const star = await findViewer(sqlSearch.db, NOTIFIED)
    log(`Notifications of ${NOTIFIED} from the seeded likes, reposts, follows, replies and mentions (bulk SQL)...`)
    notified = await seedNotifications(sqlSearch.db, star.id)
    log(`  ${notified.items.toLocaleString('en-US')} items (${notified.unread.toLocaleString('en-US')} unread), ${notified.actors.toLocaleString('en-US')} actors: ${JSON.stringify(notified.byKind)}`)

    app = await buildApp({ config: { databaseUrl: url, dataDir, rateLimits: false, logLevel: 'silent' }, logger: false })
    const base = await listen(app)
    const searchToken = await login(base, SEARCHER)
    const starToken = await login(base, NOTIFIED)

    const q = (s: string) => encodeURIComponent(s)
    const pairs: Pair[] = [
      ...(['common', 'rare', 'twoWords', 'hashtag'] as const).map((k): Pair => {
        const t = targets[k]
        return {
          name: `posts "${t.word}" (${k === 'twoWords' ? 'two words' : k}, ${t.posts.toLocaleString('en-US')} posts)`,
          group: 'posts',
          path: `/api/posts/search?q=${q(t.word)}`,
          list: 'posts',
          token: searchToken,
          sql: () => sqlSearch.posts(searcher.id, t.word),
          note: 'searchKeys() + hydratePosts()',
        }
      }),
      ...Object.entries(USER_QUERIES).map(([k, v]): Pair => ({
        name: `users "${v}" (${k})`,
        group: 'users',
        path: `/api/users/search?q=${q(v)}`,
        list: 'users',
        token: searchToken,
        sql: () => sqlSearch.users(searcher.id, v),
        note: 'suggestedUsers() + searchUserPage()',
      })),
      {
        name: `hashtags "${HASHTAG_PREFIX}"`,
        group: 'hashtags',
        path: `/api/hashtags/search?q=${HASHTAG_PREFIX}`,
        list: 'hashtags',
        token: searchToken,
        sql: () => sqlSearch.hashtags(HASHTAG_PREFIX),
        note: 'hashtagsStartingWith()',
      },
      {
        name: 'trends',
        group: 'trends',
        path: '/api/posts/trending',
        list: 'trends',
        token: searchToken,
        sql: () => sqlSearch.trends(),
        note: 'trendingTags()',
      },
      {
        name: `notifications of ${NOTIFIED}`,
        group: 'notifications',
        path: '/api/notifications',
        list: 'notifications',
        token: starToken,
        sql: () => sqlSearch.notifications(star.id),
        note: 'notificationPage() + unreadCount()',
      },
    ]

    const load = (target: string, token: string) =>
      measureHttp({
        url: target,
        headers: { authorization: `Bearer ${token}` },
        connections: o.connections,
        warmupRequests: o.warmup * o.connections,
        durationSeconds: o.duration,
      })

    for (const p of pairs) {
      const items = await probe(`${base}${p.path}`, p.token, p.list)
      log(`HTTP ${p.name} (${items} on page 1)...`)
      scenarios.push(fromHttp(`HTTP ${p.name}`, await load(`${base}${p.path}`, p.token), `${items} items`))
    }
    // Above is the app as it runs: trends cached for 30 s, searches' matches for 15 s, suggestions for 60 s
    // (docs/product.md, "Search"). The same app with its caches off reads everything on every request: what a
    // first search of a new query pays, and what every request in tests with WREN_TEST_CACHES=off pays.
    await app.close()
    app = undefined
    cold = await buildApp({
      config: { databaseUrl: url, dataDir, rateLimits: false, logLevel: 'silent' },
      logger: false,
      caches: false,
    })
    const coldBase = await listen(cold)
    const coldTokens = { [searchToken]: await login(coldBase, SEARCHER), [starToken]: await login(coldBase, NOTIFIED) }
    for (const p of pairs) {
      log(`HTTP ${p.name}, caches off...`)
      const token = coldTokens[p.token] ?? p.token
      scenarios.push(fromHttp(`HTTP ${p.name}, caches off`, await load(`${coldBase}${p.path}`, token), 'every read from the database'))
    }
    await cold.close()
    cold = undefined

    for (const p of pairs) {
      log(`SQL ${p.name}...`)
      const r = await measureLoop(o.connections, o.warmup, o.duration, async () => {
        await p.sql()
      })
      scenarios.push(fromLoop(`SQL ${p.name}`, r, p.note))
    }

    plans[`post search "${targets.common.word}" (common word): searchKeys()`] = await sqlSearch.explainPosts(
      searcher.id,
      targets.common.word,
    )
    plans[`post search "${targets.rare.word}" (rare word): searchKeys()`] = await sqlSearch.explainPosts(
      searcher.id,
      targets.rare.word,
    )
    plans[`notifications of ${NOTIFIED}`] = await sqlSearch.explainNotifications(star.id)

    const report = {
      date: new Date().toISOString().slice(0, 10),
      environment: {
        node: process.version,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? 'unknown',
        memoryGb: Math.round(os.totalmem() / 2 ** 30),
        loadAverage1mBefore: Number(loadBefore.toFixed(2)),
        loadAverage1mAfter: Number((os.loadavg()[0] ?? 0).toFixed(2)),
        postgres: await serverVersion(),
      },
      seed,
      searched: { ...targets, searcher: SEARCHER, users: USER_QUERIES, hashtagPrefix: HASHTAG_PREFIX },
      notifications: { member: NOTIFIED, ...notified },
      settings: { connections: o.connections, durationSeconds: o.duration, warmupRoundsPerConnection: o.warmup, page: 20 },
      scenarios,
      ratios: ratios(pairs, scenarios),
      checks: checks(pairs, scenarios),
      plans,
    }
    console.log(`\n${scenarioTable(scenarios)}\n\n${warmupTable(scenarios)}\n`)
    for (const [k, v] of Object.entries(report.ratios)) console.log(`${k}: ${v.toFixed(2)}`)
    for (const c of report.checks) console.log(`${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`)
    const files = await writeResultFiles(resultsDir, report.date, 'search', report, markdown(report))
    console.log(`\nWrote ${path.relative(process.cwd(), files.json)} and ${path.relative(process.cwd(), files.markdown)}`)
    console.log(`Total ${((Date.now() - started) / 1000).toFixed(0)} s`)
  } finally {
    await app?.close()
    await cold?.close()
    await sqlSearch.close()
    await rm(dataDir, { recursive: true, force: true })
    if (!o.keepDb) await dropBenchDatabase(o.database)
  }
}

const byName = (scenarios: Scenario[], name: string) => scenarios.find((s) => s.name === name)

function ratios(pairs: Pair[], scenarios: Scenario[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const p of pairs) {
    const http = byName(scenarios, `HTTP ${p.name}`)
    const raw = byName(scenarios, `SQL ${p.name}`)
    if (!http || !raw) continue
    out[`HTTP/SQL p50, ${p.name}`] = http.p50 / raw.p50
    out[`HTTP/SQL p99, ${p.name}`] = http.p99 / raw.p99
    out[`HTTP/SQL throughput, ${p.name}`] = http.rate / raw.rate
  }
  for (const p of pairs) {
    const cold = byName(scenarios, `HTTP ${p.name}, caches off`)
    const raw = byName(scenarios, `SQL ${p.name}`)
    if (cold && raw) out[`HTTP caches off/SQL p99, ${p.name}`] = cold.p99 / raw.p99
  }
  return out
}

function checks(pairs: Pair[], scenarios: Scenario[]): Check[] {
  const out: Check[] = []
  for (const s of scenarios) {
    if (s.failures > 0) out.push({ name: `${s.name} without failures`, pass: false, detail: `${s.failures} failed` })
    if (s.count === 0) out.push({ name: `${s.name} completes requests`, pass: false, detail: 'none finished in time' })
  }
  for (const p of pairs) {
    if (p.group === 'hashtags') continue
    const http = byName(scenarios, `HTTP ${p.name}`)
    if (!http) continue
    const limit = TARGETS[p.group]
    out.push({ name: `HTTP ${p.name} p99 < ${limit} ms`, pass: http.p99 < limit, detail: `p99 ${http.p99.toFixed(1)} ms` })
  }
  return out
}

function markdown(report: {
  date: string
  environment: Record<string, string | number>
  seed: Record<string, unknown>
  searched: Record<string, unknown>
  notifications: Record<string, unknown>
  settings: Record<string, string | number>
  scenarios: Scenario[]
  ratios: Record<string, number>
  checks: Check[]
  plans: Record<string, string>
}): string {
  return [
    `# Search, trends and notifications benchmark, ${report.date}`,
    '',
    `Load average (1 min) before ${report.environment.loadAverage1mBefore}, after ${report.environment.loadAverage1mAfter} on ${report.environment.cpus} cores.`,
    '',
    scenarioTable(report.scenarios),
    '',
    '## Targets',
    '',
    ...report.checks.map((c) => `- ${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`),
    '',
    '## Ratios (HTTP through the app / the same SQL through pg)',
    '',
    ...Object.entries(report.ratios).map(([k, v]) => `- ${k}: ${v.toFixed(2)}`),
    '',
    '## Warm-up (not measured above)',
    '',
    warmupTable(report.scenarios),
    '',
    '## What was searched',
    '',
    '```json',
    JSON.stringify({ searched: report.searched, notifications: report.notifications }, null, 2),
    '```',
    '',
    '## Data',
    '',
    '```json',
    JSON.stringify(report.seed, null, 2),
    '```',
    '',
    '## Settings and machine',
    '',
    ...Object.entries({ ...report.settings, ...report.environment }).map(([k, v]) => `- ${k}: ${v}`),
    '',
    '## Query plans (EXPLAIN (ANALYZE, BUFFERS), first page, warm cache)',
    '',
    ...Object.entries(report.plans).flatMap(([k, v]) => [`### ${k}`, '', '```', v, '```', '']),
  ].join('\n')
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
