import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { performance as perf } from 'node:perf_hooks'
import { buildApp } from '../server/app'
import type { LruStats } from '../server/cache/lru'
import { listen } from './lib/app-http'
import { profiled, type ProfileShare } from './lib/cpu-profile'
import {
  benchDatabaseExists,
  benchUrl,
  checkBenchDatabaseName,
  dropBenchDatabase,
  serverVersion,
} from './lib/database'
import { measureHttp, runWorker } from './lib/load'
import { measureLoop } from './lib/loop'
import {
  type KindResult,
  type MixedLoadRequest,
  type MixedLoadResult,
  type OpenLoadSetup,
  READ_KINDS,
  type RequestSamples,
  WRITE_KINDS,
} from './lib/mixed-protocol'
import {
  activeMembers,
  appCapacity,
  capacityChecks,
  capacityMarkdown,
  capacityRows,
  type CapacityResult,
  OPEN_LIMITS,
  type OpenOptions,
  sqlCapacity,
  sqlMixHint,
} from './lib/mixed-capacity'
import { makeMixedSetup, type MixedSetup } from './lib/mixed-setup'
import { postgresCpuMs } from './lib/msg-cpu'
import { buildNoDbApp, syntheticFeedPage } from './lib/no-db-app'
import { type Check, fromHttp, fromLoop, type Scenario, scenarioTable, writeResultFiles } from './lib/report'
import { seedBenchDatabase } from './lib/seeded'
import { openSqlMixed } from './lib/sql-mixed'
import type { Viewer } from './lib/sql-feed'
import { measureWarmFeeds } from './lib/warm-feed'

/**
 * `npm run bench -- --only mixed`: a community at work rather than two members.
 *
 * On the seeded database (1M posts, 20K members; its own `wren_bench_mixed`, or the feed bench's with --reuse-db):
 * every member gets a session by SQL; then, each phase with its load in a child process
 * (bench/lib/mixed-load-worker.ts):
 *
 * 1. cold start, quiet: a fresh app, the first feed page of members following ~2,000 accounts nobody has touched;
 * 2. the mixed workload at 50 connections: sessions of Zipf-drawn members (feed page 1, 3 more pages through the real
 *    nextCursor, a post page, a profile) with one write in ten after reads (post, like, repost, follow, unfollow,
 *    block); meanwhile a post every second by a followee of often-drawn readers, polled in their feeds every 50 ms
 *    (freshness), and the other half of the cold members' first pages (cold start under load);
 * 3. the burst: one account with 5,000 followers posts while they read;
 * 4. the feed bench's two warm members (demo_reader, demo_casual), for comparison;
 * 5. the same mix on the app built with `caches: false` (the cache-miss path);
 * 6. the raw SQL of each request kind through `pg` (the modules' own query functions), replaying inputs the mix made;
 * 7. the no-DB route (bench/lib/no-db-app.ts);
 * 8. (`--mode open` or `both`) the capacity of the mix: requests arriving at a fixed rate whatever the answers
 *    (open loop, bench/lib/open-loop.ts), the rate searched up then bisected, for the app with caches, without, and
 *    the raw SQL of the mix (bench/lib/mixed-capacity.ts); with `both`, after the closed phase of each;
 * then bench/results/<date>-mixed.{json,md}. No server code is changed by the bench: it measures.
 */

const resultsDir = fileURLToPath(new URL('./results', import.meta.url))
const log = (line: string) => console.log(line)

function options() {
  const { values } = parseArgs({
    options: {
      posts: { type: 'string', default: '1000000' },
      users: { type: 'string', default: '20000' },
      duration: { type: 'string', default: '30' },
      'warmup-seconds': { type: 'string', default: '5' },
      'sql-duration': { type: 'string', default: '5' },
      connections: { type: 'string', default: '50' },
      'write-ratio': { type: 'string', default: '0.1' },
      'cold-members': { type: 'string', default: '40' },
      'burst-followers': { type: 'string', default: '5000' },
      'burst-seconds': { type: 'string', default: '20' },
      database: { type: 'string', default: 'wren_bench_mixed' },
      mode: { type: 'string', default: 'both' },
      'open-seconds': { type: 'string', default: '3' },
      'open-start': { type: 'string', default: '40' },
      arrivals: { type: 'string', default: 'poisson' },
      profile: { type: 'string' },
      'keep-db': { type: 'boolean', default: false },
      'reuse-db': { type: 'boolean', default: false },
    },
    strict: true,
  })
  const number = (name: string, raw: string, min: number, max: number, integer = true) => {
    const n = Number(raw)
    if ((integer && !Number.isInteger(n)) || !(n >= min && n <= max)) throw new Error(`--${name} must be a number from ${min} to ${max}`)
    return n
  }
  const oneOf = <T extends string>(name: string, raw: string, allowed: readonly T[]): T => {
    if (!(allowed as readonly string[]).includes(raw)) throw new Error(`--${name} takes ${allowed.join(', ')} (got "${raw}")`)
    return raw as T
  }
  return {
    mode: oneOf('mode', values.mode, ['closed', 'open', 'both'] as const),
    openSeconds: number('open-seconds', values['open-seconds'], 1, 120),
    openStart: number('open-start', values['open-start'], 1, 50_000, false),
    arrivals: oneOf('arrivals', values.arrivals, ['poisson', 'uniform'] as const),
    posts: number('posts', values.posts, 1_000, 20_000_000),
    users: number('users', values.users, 100, 1_000_000),
    duration: number('duration', values.duration, 1, 600),
    warmupSeconds: number('warmup-seconds', values['warmup-seconds'], 0, 120),
    sqlDuration: number('sql-duration', values['sql-duration'], 1, 120),
    connections: number('connections', values.connections, 1, 200),
    writeRatio: number('write-ratio', values['write-ratio'], 0, 1, false),
    coldMembers: number('cold-members', values['cold-members'], 0, 1_000),
    burstFollowers: number('burst-followers', values['burst-followers'], 10, 1_000_000),
    burstSeconds: number('burst-seconds', values['burst-seconds'], 0, 600),
    database: checkBenchDatabaseName(values.database),
    profile: values.profile,
    keepDb: values['keep-db'],
    reuseDb: values['reuse-db'],
  }
}

type Options = ReturnType<typeof options>

/** Writes in the stream, by weight: reactions most, graph changes least. */
const WRITE_WEIGHTS = { post: 25, like: 40, repost: 10, follow: 12, unfollow: 8, block: 5 } as const

/** What one phase cost the machine: the app's process, the PostgreSQL backends of the bench database, the load. */
interface Resources {
  seconds: number
  appCpuPercent: number
  postgresCpuPercent: number
  loadCpuPercent: number
  appEventLoopBusy: number
}

interface Phase {
  load: Omit<MixedLoadResult, 'samples'>
  resources: Resources
  /** What each cache of the app did during the phase (caches on only). */
  caches?: Record<string, LruStats>
}

type App = Awaited<ReturnType<typeof buildApp>>

/** The counters of the app's caches that a reading session goes through. */
function cacheStats(app: App): Record<string, LruStats> {
  const { postCaches } = app.services
  return {
    'feed timelines': postCaches.timelines.stats,
    'post cards': postCaches.cards.stats,
    authors: postCaches.authors.stats,
    'viewer flags': postCaches.flags.stats,
    sessions: app.services.sessions.cacheStats,
  }
}

function statsSince(app: App, before: Record<string, LruStats>): Record<string, LruStats> {
  const now = cacheStats(app)
  return Object.fromEntries(
    Object.entries(now).map(([name, n]) => {
      const b = before[name] ?? { hits: 0, misses: 0, stored: 0, refused: 0 }
      return [name, { hits: n.hits - b.hits, misses: n.misses - b.misses, stored: n.stored - b.stored, refused: n.refused - b.refused }]
    }),
  )
}

async function measured(database: string, run: () => Promise<MixedLoadResult>): Promise<{ result: MixedLoadResult; resources: Resources }> {
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const elu0 = perf.eventLoopUtilization()
  const pg0 = await postgresCpuMs(database)
  const result = await run()
  const pg1 = await postgresCpuMs(database)
  const cpu = process.cpuUsage(cpu0)
  const elu = perf.eventLoopUtilization(elu0)
  const ms = performance.now() - t0
  return {
    result,
    resources: {
      seconds: ms / 1000,
      appCpuPercent: ((cpu.user + cpu.system) / 1000 / ms) * 100,
      postgresCpuPercent: ((pg1 - pg0) / ms) * 100,
      loadCpuPercent: (result.cpuMs / (result.measuredSeconds * 1000)) * 100,
      appEventLoopBusy: elu.utilization,
    },
  }
}

const withoutSamples = ({ samples: _samples, ...rest }: MixedLoadResult) => rest

function percentileOf(values: readonly number[], p: number): number {
  const sorted = Float64Array.from(values).sort()
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
}

async function main() {
  const o = options()
  const url = benchUrl(undefined, o.database)
  const started = Date.now()
  const loadBefore = os.loadavg()[0] ?? 0
  const loadSeen: number[] = [loadBefore]
  const loadTimer = setInterval(() => loadSeen.push(os.loadavg()[0] ?? 0), 5_000)

  let seed: Record<string, unknown>
  if (o.reuseDb && (await benchDatabaseExists(o.database))) {
    log(`Reusing ${o.database} (--reuse-db)`)
    seed = { reused: o.database }
  } else {
    log(`Seeding ${o.database}: ${o.users.toLocaleString('en-US')} members and ${o.posts.toLocaleString('en-US')} posts...`)
    const result = await seedBenchDatabase(o.database, o.users, o.posts, (l) => log(`  ${l}`))
    if (result.problems.length > 0) throw new Error(`seeded counters disagree: ${result.problems.join('; ')}`)
    seed = { database: o.database, users: o.users, posts: o.posts, rows: result.rows, seconds: result.seconds }
    log(`Seeded in ${result.seconds.total.toFixed(1)} s`)
  }

  log('Sessions for every member, the burst account, the freshness authors (SQL)...')
  const setup = await makeMixedSetup(url, {
    coldMembers: o.coldMembers,
    burstFollowers: o.burstFollowers,
    freshnessAuthors: 20,
    seed: 13,
  })
  log(
    `  ${setup.members.length.toLocaleString('en-US')} sessions, ${setup.readers.toLocaleString('en-US')} readers, ` +
      `${setup.cold.length} cold members, burst account with ${setup.burst.followers.length.toLocaleString('en-US')} ` +
      `followers (${setup.burst.addedFollows} follows added), ${setup.freshness.length} freshness authors, ${setup.seconds.toFixed(1)} s`,
  )
  const viewers: Viewer[] = setup.members.map((m, i) => ({
    id: m.id,
    username: m.username,
    followingCount: setup.followingCount[i] ?? 0,
  }))
  const protectedMembers = [
    setup.burst.author,
    ...setup.freshness.flatMap((f) => [f.author, ...f.followers]),
    ...setup.cold,
    ...[setup.demoReader, setup.demoCasual].filter((i): i is number => i !== undefined),
  ]
  const half = Math.ceil(setup.cold.length / 2)
  const request = (base: string, fields: Partial<MixedLoadRequest>): MixedLoadRequest => ({
    mode: 'mixed',
    base,
    connections: o.connections,
    warmupSeconds: o.warmupSeconds,
    durationSeconds: o.duration,
    seed: 2026,
    members: setup.members,
    readers: setup.readers,
    zipfExponent: 1,
    writeRatio: o.writeRatio,
    writeWeights: { ...WRITE_WEIGHTS },
    protectedMembers,
    freshness: setup.freshness,
    freshnessIntervalMs: 1000,
    pollIntervalMs: 50,
    pollTimeoutMs: 5000,
    cold: [],
    samples: 2000,
    ...fields,
  })
  const mixedLoad = (r: MixedLoadRequest) => runWorker<MixedLoadRequest, MixedLoadResult>(workerFile, r)

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wren-bench-mixed-'))
  const appConfig = { databaseUrl: url, dataDir, rateLimits: false, logLevel: 'silent' } as const
  const phases: Record<string, Phase> = {}
  const scenarios: Scenario[] = []
  const pending: string[] = []
  let profile: ProfileShare[] | undefined
  let samples: MixedLoadResult['samples'] | undefined
  let firstBody: Parameters<typeof buildNoDbApp>[0] | undefined
  let noDbRate = 0
  const sqlRows = new Map<string, Scenario>()
  const closed = o.mode !== 'open'
  const open = o.mode !== 'closed'
  const capacity: Array<CapacityResult & { caches?: Record<string, LruStats> }> = []
  let openSamples: RequestSamples | undefined
  const openOptions: OpenOptions = {
    openSeconds: o.openSeconds,
    openStart: o.openStart,
    warmupSeconds: o.warmupSeconds,
    arrivals: o.arrivals,
    writeRatio: o.writeRatio,
    database: o.database,
  }
  const openSetup = (base: string): OpenLoadSetup => ({
    base,
    connections: o.connections,
    seed: 2027,
    members: setup.members,
    readers: setup.readers,
    zipfExponent: 1,
    writeRatio: o.writeRatio,
    writeWeights: { ...WRITE_WEIGHTS },
    protectedMembers,
    samples: 2000,
  })
  /** A closed phase's requests per second: the saturated rate a capacity search starts from (half of it). */
  const closedRate = (name: string) => {
    const p = phases[name]
    return p ? p.load.kinds.reduce((a, k) => a + k.count, 0) / p.load.measuredSeconds : undefined
  }
  try {
    // 1-4: the app as it runs, caches on, fresh.
    const app = await buildApp({ config: appConfig, logger: false })
    try {
      const base = await listen(app)
      if (closed) {
        // Open the pool and let its statements settle on their generic plans with readers' first pages (not measured),
        // so the cold rows measure the members' missing cache entries rather than new connections.
        await mixedLoad(request(base, { mode: 'cold', cold: Array.from({ length: Math.min(60, setup.readers) }, (_, i) => i) }))
        log(`Cold start, quiet: first feed page of ${half} members nobody has touched, one after another...`)
        const coldQuiet = await measured(o.database, () => mixedLoad(request(base, { mode: 'cold', cold: setup.cold.slice(0, half) })))
        phases['cold start, quiet'] = { load: withoutSamples(coldQuiet.result), resources: coldQuiet.resources }

        log(`Mixed workload, caches on: ${o.warmupSeconds} s warm-up, ${o.duration} s measured, ${o.connections} connections...`)
        const statsBefore = cacheStats(app)
        const on = await measured(o.database, () => mixedLoad(request(base, { cold: setup.cold.slice(half) })))
        phases['mixed, caches on'] = { load: withoutSamples(on.result), resources: on.resources, caches: statsSince(app, statsBefore) }
        samples = on.result.samples
        logPhase('mixed, caches on', on.result, on.resources)

        if (o.burstSeconds > 0) {
          log(`Burst: the account with ${setup.burst.followers.length.toLocaleString('en-US')} followers posts 3 times while they read...`)
          const burstBefore = cacheStats(app)
          const burst = await measured(o.database, () =>
            mixedLoad(
              request(base, {
                mode: 'burst',
                durationSeconds: o.burstSeconds,
                burst: { author: setup.burst.author, followers: setup.burst.followers, posts: 3, polled: 10 },
              }),
            ),
          )
          phases.burst = { load: withoutSamples(burst.result), resources: burst.resources, caches: statsSince(app, burstBefore) }
          logPhase('burst', burst.result, burst.resources)
        }

        // The feed bench's rows: two members whose feeds stay warm (same functions as bench/feed.ts).
        const warmMembers = [
          { label: '2,000 followed', index: setup.demoReader },
          { label: '20 followed', index: setup.demoCasual },
        ].flatMap(({ label, index }) => {
          const m = index === undefined ? undefined : setup.members[index]
          return m ? [{ label, username: m.username, token: m.token }] : []
        })
        const load = (target: string, headers: Record<string, string> = {}, connections = o.connections) =>
          measureHttp({ url: target, headers, connections, warmupRequests: 10 * connections, durationSeconds: Math.min(10, o.duration) })
        const warm = await measureWarmFeeds(base, warmMembers, load, log, { singleConnection: false })
        scenarios.push(...warm.scenarios.map((s) => ({ ...s, name: `${s.name} (warm, two-member rows)` })))
        pending.push(...warm.pending)
        firstBody = warm.firstBody

        if (o.profile) {
          await mkdir(o.profile, { recursive: true })
          const file = path.join(o.profile, 'mixed-caches-on.cpuprofile')
          log(`Profiling the app through 10 s of the mix (${file}; not in the table)...`)
          profile = (await profiled(file, () => mixedLoad(request(base, { durationSeconds: 10, warmupSeconds: 2 })))).summary
        }
      }
      if (open) {
        const statsBefore = cacheStats(app)
        const r = await appCapacity('caches on', openSetup(base), openOptions, closedRate('mixed, caches on'), log)
        capacity.push({ ...r.result, caches: statsSince(app, statsBefore) })
        openSamples = r.samples
      }
    } finally {
      await app.close()
    }

    // 5: the cache-miss path.
    const cold = await buildApp({ config: appConfig, logger: false, caches: false })
    try {
      const base = await listen(cold)
      if (closed) {
        log(`Mixed workload, caches off: ${o.warmupSeconds} s warm-up, ${o.duration} s measured...`)
        const off = await measured(o.database, () => mixedLoad(request(base, {})))
        phases['mixed, caches off'] = { load: withoutSamples(off.result), resources: off.resources }
        logPhase('mixed, caches off', off.result, off.resources)
      }
      if (open) capacity.push((await appCapacity('caches off', openSetup(base), openOptions, closedRate('mixed, caches off'), log)).result)
    } finally {
      await cold.close()
    }

    // 6: the raw SQL of each kind, replaying what the caches-on mix asked; then the raw SQL of the whole mix.
    if (closed && samples) await rawSql(o, url, samples, viewers, sqlRows)
    if (open) {
      const replayed = openSamples && openSamples.feedFirst.length > 0 ? openSamples : samples
      if (replayed) {
        const hint = closed ? sqlMixHint(sqlRows, o.writeRatio, WRITE_WEIGHTS) : undefined
        capacity.push(await sqlCapacity(url, replayed, viewers, WRITE_WEIGHTS, openOptions, hint, log))
      } else {
        pending.push('raw SQL capacity not measured: the app answered no feed page to replay')
      }
    }

    // 7: the web layer's ceiling.
    if (closed) {
      const noDb = await buildNoDbApp(firstBody && firstBody.posts.length === 20 ? firstBody : syntheticFeedPage())
      try {
        const base = await listen(noDb)
        log('HTTP no-DB route, 20 fixed posts...')
        const r = await measureHttp({
          url: `${base}/api/posts/feed`,
          headers: {},
          connections: o.connections,
          warmupRequests: 10 * o.connections,
          durationSeconds: Math.min(10, o.duration),
        })
        const row = fromHttp('HTTP no-DB, 20 fixed posts', r, firstBody ? 'real page' : 'synthetic page')
        scenarios.push(row)
        noDbRate = row.rate
      } finally {
        await noDb.close()
      }
    }
  } finally {
    clearInterval(loadTimer)
    await rm(dataDir, { recursive: true, force: true })
    if (!o.keepDb) await dropBenchDatabase(o.database)
  }

  const loadAfter = os.loadavg()[0] ?? 0
  const table = kindTable(phases, sqlRows, noDbRate, o.connections)
  const checks = [...targetChecks(phases, table, noDbRate), ...capacityChecks(capacity)]
  const capacityOn = capacity.find((c) => c.config === 'caches on')
  const report = {
    date: new Date().toISOString().slice(0, 10),
    environment: {
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      loadAverage1mBefore: Number(loadBefore.toFixed(2)),
      loadAverage1mAfter: Number(loadAfter.toFixed(2)),
      loadAverage1mMaxDuring: Number(Math.max(...loadSeen, loadAfter).toFixed(2)),
      postgres: await serverVersion(),
    },
    seed,
    settings: {
      mode: o.mode,
      database: o.database,
      connections: o.connections,
      durationSeconds: o.duration,
      warmupSeconds: o.warmupSeconds,
      sqlDurationSeconds: o.sqlDuration,
      writeRatio: o.writeRatio,
      writeWeights: WRITE_WEIGHTS,
      zipfExponent: 1,
      readers: setup.readers,
      sessions: setup.members.length,
      coldMembers: setup.cold.map((i) => ({ username: setup.members[i]?.username, following: setup.followingCount[i] })),
      burstAccount: {
        username: setup.members[setup.burst.author]?.username,
        followers: setup.burst.followers.length,
        followsAdded: setup.burst.addedFollows,
      },
      freshnessAuthors: setup.freshness.length,
      ...(open
        ? { open: { stepSeconds: o.openSeconds, settleSeconds: 1, arrivals: o.arrivals, start: o.openStart, limitsMs: OPEN_LIMITS } }
        : {}),
    },
    ...(open
      ? {
          capacity: {
            rows: capacityRows(capacity),
            ...(capacityOn ? { activeMembers: activeMembers(capacityOn.capacity) } : {}),
            searches: capacity,
          },
        }
      : {}),
    phases,
    table,
    sql: [...sqlRows.values()],
    scenarios,
    checks,
    ...(profile ? { profile } : {}),
    pending,
  }
  const markdown = toMarkdown(report, setup, capacity, openOptions)
  console.log(`\n${markdown}`)
  const files = await writeResultFiles(resultsDir, report.date, 'mixed', report, markdown)
  console.log(`\nWrote ${path.relative(process.cwd(), files.json)} and ${path.relative(process.cwd(), files.markdown)}`)
  console.log(`Total ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

const workerFile = fileURLToPath(new URL('./lib/mixed-load-worker.ts', import.meta.url))

function logPhase(name: string, r: MixedLoadResult, res: Resources) {
  const total = r.kinds.reduce((a, k) => a + k.count, 0)
  log(
    `  ${name}: ${Math.round(total / r.measuredSeconds)} req/s, ${r.sessions} sessions of ${r.distinctReaders} distinct members; ` +
      `CPU app ${res.appCpuPercent.toFixed(0)}%, PostgreSQL ${res.postgresCpuPercent.toFixed(0)}%, load ${res.loadCpuPercent.toFixed(0)}%` +
      (r.firstFailure ? `; first failure: ${r.firstFailure}` : ''),
  )
}

/** The raw SQL of each request kind, 50 clients in a loop over the inputs the caches-on mix used. */
async function rawSql(
  o: Options,
  url: string,
  samples: MixedLoadResult['samples'],
  viewers: readonly Viewer[],
  rows: Map<string, Scenario>,
) {
  const sql = openSqlMixed(url, o.connections)
  const viewer = (i: number) => viewers[i] ?? { id: '', username: '', followingCount: 0 }
  const replay = async <T>(name: string, note: string, inputs: readonly T[], task: (input: T) => Promise<unknown>) => {
    if (inputs.length === 0) return
    log(`SQL ${name} (${inputs.length} recorded inputs)...`)
    let next = 0
    const step = async () => {
      const input = inputs[next % inputs.length] as T
      next += 1
      await task(input)
    }
    rows.set(name, fromLoop(`SQL ${name}`, await measureLoop(o.connections, 3, o.sqlDuration, step), note))
    // One client: the statements' own time, without 49 others queueing for the same 2 cores.
    rows.set(`${name}, 1 client`, fromLoop(`SQL ${name}, 1 client`, await measureLoop(1, 3, Math.min(2, o.sqlDuration), step), note))
  }
  try {
    await replay('feed page 1', 'feedKeys() + hydratePosts()', samples.feedFirst, (m) => sql.feedFirst(viewer(m)))
    await replay('feed pages 2-4', 'feedKeys(cursor) + hydratePosts()', samples.feedNext, (s) => sql.feedNext(viewer(s.member), s.cursor))
    await replay('post page', 'findVisiblePost + replyKeys + hydratePosts + mutedNotices', samples.postPage, (s) =>
      sql.postPage(viewer(s.member), s.postId),
    )
    await replay('profile', 'member, wall, flags, profileKeys + hydratePosts, visiblePostCount', samples.profile, (s) =>
      sql.profile(viewer(s.member), s.username),
    )
    await replay('write: like', 'transaction: findVisiblePost (lock) + toggleReaction', samples.like, (s) =>
      sql.like(viewer(s.member), s.postId),
    )
    await replay('write: post', 'findMentionable + transaction: insertPost', samples.post, (m) =>
      sql.post(viewer(m), 'Raw SQL bench note: a walk, a book, #bench'),
    )
  } finally {
    await sql.close()
  }
}

interface KindRow {
  kind: string
  on: KindResult | undefined
  off: KindResult | undefined
  sql: Scenario | undefined
  /** The same SQL at one client: its service time without queueing. */
  sqlSingle: Scenario | undefined
  /** What `connections` connections asking only this kind at its mean latency would serve (Little's law). */
  equivalentRate: number
  ofNoDb: number
  onOverSqlP50: number | undefined
  offOverSqlP50: number | undefined
}

function kindTable(phases: Record<string, Phase>, sql: Map<string, Scenario>, noDbRate: number, connections: number): KindRow[] {
  const on = phases['mixed, caches on']?.load.kinds ?? []
  const off = phases['mixed, caches off']?.load.kinds ?? []
  const names = [
    ...READ_KINDS,
    ...WRITE_KINDS.map((w) => `write: ${w}`),
    'freshness: post',
    'freshness: poll',
    'cold first page',
  ]
  return names.flatMap((kind) => {
    const a = on.find((k) => k.kind === kind)
    const b = off.find((k) => k.kind === kind)
    if (!a && !b) return []
    const s = sql.get(kind)
    const equivalentRate = a && a.mean > 0 ? (connections * 1000) / a.mean : 0
    return [
      {
        kind,
        on: a,
        off: b,
        sql: s,
        sqlSingle: sql.get(`${kind}, 1 client`),
        equivalentRate,
        ofNoDb: noDbRate > 0 ? equivalentRate / noDbRate : 0,
        onOverSqlP50: a && s && s.p50 > 0 ? a.p50 / s.p50 : undefined,
        offOverSqlP50: b && s && s.p50 > 0 ? b.p50 / s.p50 : undefined,
      },
    ]
  })
}

function targetChecks(phases: Record<string, Phase>, table: KindRow[], noDbRate: number): Check[] {
  const checks: Check[] = []
  const on = phases['mixed, caches on']
  for (const kind of ['feed page 1', 'feed pages 2-4'] as const) {
    const k = on?.load.kinds.find((x) => x.kind === kind)
    if (k) checks.push({ name: `mixed: ${kind} p99 < 50 ms`, pass: k.p99 < 50, detail: `p99 ${k.p99.toFixed(1)} ms` })
  }
  for (const row of table) {
    if (!row.on || row.kind.startsWith('freshness') || row.kind === 'cold first page') continue
    const byNoDb = row.ofNoDb >= 0.5
    const bySql = row.onOverSqlP50 !== undefined && row.onOverSqlP50 <= 2
    checks.push({
      name: `mixed: ${row.kind} >= 0.5 x no-DB req/s or within 2 x its raw SQL`,
      pass: byNoDb || bySql,
      detail:
        `${Math.round(row.equivalentRate)} req/s equivalent vs no-DB ${Math.round(noDbRate)} (x${row.ofNoDb.toFixed(2)})` +
        (row.onOverSqlP50 !== undefined ? `; p50 ${row.onOverSqlP50.toFixed(2)} x raw SQL` : '; no raw SQL row'),
    })
  }
  const feedRow = table.find((r) => r.kind === 'feed page 1')
  if (feedRow?.offOverSqlP50 !== undefined) {
    checks.push({
      name: 'cache-miss feed (caches off, page 1) within 2 x the raw SQL',
      pass: feedRow.offOverSqlP50 <= 2,
      detail: `p50 ${feedRow.off?.p50.toFixed(1)} ms vs ${feedRow.sql?.p50.toFixed(1)} ms (x${feedRow.offOverSqlP50.toFixed(2)})`,
    })
  }
  for (const [name, phase] of [
    ['mixed', on],
    ['burst', phases.burst],
  ] as const) {
    if (!phase) continue
    const f = phase.load.freshness
    const p99 = percentileOf(f, 99)
    checks.push({
      name: `${name}: a new post in its followers' first feed page < 1 s at p99`,
      pass: f.length > 0 && p99 < 1000 && phase.load.freshnessMissed === 0,
      detail: `p50 ${percentileOf(f, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms over ${f.length} (post, follower) pairs; ${phase.load.freshnessMissed} not seen within 5 s`,
    })
  }
  const burstFeed = phases.burst?.load.kinds.find((k) => k.kind === 'burst: feed page 1, 1 s after a burst post')
  if (burstFeed) {
    checks.push({ name: 'burst: feed page 1 p99 < 50 ms within 1 s after a post', pass: burstFeed.p99 < 50, detail: `p99 ${burstFeed.p99.toFixed(1)} ms over ${burstFeed.count}` })
  }
  for (const [name, phase] of [
    ['quiet (fresh app, one at a time)', phases['cold start, quiet']],
    ['under the mixed load', on],
  ] as const) {
    const k = phase?.load.kinds.find((x) => x.kind === 'cold first page')
    if (k) checks.push({ name: `cold start ${name}: first page p99 < 100 ms`, pass: k.p99 < 100, detail: `p50 ${k.p50.toFixed(1)} ms, p99 ${k.p99.toFixed(1)} ms over ${k.count} members` })
  }
  for (const [name, phase] of Object.entries(phases)) {
    const broken = phase.load.kinds.flatMap((k) =>
      Object.entries(k.failures).filter(([status]) => status === '0' || status.startsWith('5')).map(([status, n]) => `${k.kind}: ${n} x ${status}`),
    )
    checks.push({ name: `${name}: no socket errors or 5xx`, pass: broken.length === 0, detail: broken.join(', ') || 'none' })
  }
  return checks
}

const ms = (n: number | undefined) => (n === undefined ? '' : n.toFixed(n < 10 ? 2 : n < 100 ? 1 : 0))
const int = (n: number | undefined) => (n === undefined ? '' : Math.round(n).toLocaleString('en-US'))
const failuresOf = (k: KindResult | undefined) =>
  k ? Object.entries(k.failures).map(([s, n]) => `${n} x ${s === '0' ? 'socket' : s}`).join(', ') || '0' : ''

function phaseLines(phases: Record<string, Phase>): string[] {
  const lines = [
    '| phase | seconds | requests/s | sessions | distinct members | app CPU | app event loop busy | PostgreSQL CPU | load process CPU |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const [name, p] of Object.entries(phases)) {
    const total = p.load.kinds.reduce((a, k) => a + k.count, 0)
    lines.push(
      `| ${name} | ${p.load.measuredSeconds.toFixed(1)} | ${int(total / p.load.measuredSeconds)} | ${int(p.load.sessions)} | ` +
        `${int(p.load.distinctReaders)} | ${p.resources.appCpuPercent.toFixed(0)}% | ${(p.resources.appEventLoopBusy * 100).toFixed(0)}% | ` +
        `${p.resources.postgresCpuPercent.toFixed(0)}% | ${p.resources.loadCpuPercent.toFixed(0)}% |`,
    )
  }
  return lines
}

function toMarkdown(
  report: {
    date: string
    environment: Record<string, string | number>
    seed: Record<string, unknown>
    settings: Record<string, unknown>
    phases: Record<string, Phase>
    table: KindRow[]
    scenarios: Scenario[]
    sql: Scenario[]
    checks: Check[]
    profile?: ProfileShare[]
    pending: string[]
  },
  setup: MixedSetup,
  capacity: ReadonlyArray<CapacityResult & { caches?: Record<string, LruStats> }>,
  openOptions: OpenOptions,
): string {
  const closed = report.settings.mode !== 'open'
  const cacheRows = (phase: string, caches: Record<string, LruStats> | undefined) =>
    Object.entries(caches ?? {}).map(([name, c]) => {
      const lookups = c.hits + c.misses
      const rate = lookups === 0 ? '' : `${((c.hits / lookups) * 100).toFixed(1)}%`
      return `| ${phase} | ${name} | ${int(lookups)} | ${rate} | ${int(c.stored)} | ${int(c.refused)} |`
    })
  const kindsOf = (name: string) =>
    (report.phases[name]?.load.kinds ?? []).map(
      (k) => `| ${k.kind} | ${ms(k.p50)} | ${ms(k.p99)} | ${ms(k.p999)} | ${ms(k.max)} | ${int(k.perSecond)} | ${int(k.count)} | ${failuresOf(k)} |`,
    )
  const kindHeader = ['| request | p50 ms | p99 ms | p999 ms | max ms | per second | total | non-2xx |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |']
  const fresh = (name: string) => {
    const p = report.phases[name]
    if (!p || p.load.freshness.length === 0) return []
    const f = p.load.freshness
    return [`| ${name} | ${f.length} | ${ms(percentileOf(f, 50))} | ${ms(percentileOf(f, 99))} | ${ms(Math.max(...f))} | ${p.load.freshnessMissed} |`]
  }
  return [
    `# Mixed workload benchmark, ${report.date}`,
    '',
    `${setup.readers.toLocaleString('en-US')} readers drawn by Zipf rank (exponent 1), one write in ${Math.round(1 / Number(report.settings.writeRatio || 1))} reads, ` +
      `${report.settings.connections} connections; load average ${report.environment.loadAverage1mBefore} before, ` +
      `${report.environment.loadAverage1mAfter} after, ${report.environment.loadAverage1mMaxDuring} at most during the run (2 cores).`,
    '',
    ...(closed ? closedSections() : []),
    ...capacityMarkdown(capacity, openOptions),
    '## The caches during each phase (lookups answered from memory; fills stored, or refused because what they read changed meanwhile)',
    '',
    '| phase | cache | lookups | hit rate | fills stored | fills refused |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...Object.entries(report.phases).flatMap(([phase, p]) => cacheRows(phase, p.caches)),
    ...capacity.flatMap((c) => cacheRows(`capacity search, app ${c.config}`, c.caches)),
    '',
    ...(report.profile
      ? [
          '## The app\'s CPU profile during 10 s of the mix (self time; bench --profile)',
          '',
          '| where | share |',
          '| --- | ---: |',
          ...report.profile.map((p) => `| ${p.where} | ${(p.share * 100).toFixed(1)}% |`),
          '',
        ]
      : []),
    '## Targets',
    '',
    ...report.checks.map((c) => `- ${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`),
    ...(report.pending.length > 0 ? ['', '## Pending', '', ...report.pending.map((p) => `- ${p}`)] : []),
    '',
    '## Data and settings',
    '',
    '```json',
    JSON.stringify({ seed: report.seed, settings: report.settings, environment: report.environment }, null, 2),
    '```',
    '',
  ].join('\n')

  function closedSections(): string[] {
    return [
      '## Per request kind: the app (caches on), the cache-miss path (caches off), the raw SQL',
      '',
      '"equiv. req/s" is what the connections would serve asking only this kind at its mean latency in the mix ' +
        '(connections x 1000 / mean ms), the figure compared with the no-DB route; "x SQL" is the p50 over the raw SQL p50 ' +
        '(the same inputs, 50 clients on `pg`, no session lookup).',
      '',
      '| request | on p50 | on p99 | on p999 | on req/s | on non-2xx | off p50 | off p99 | off p999 | off req/s | off non-2xx | SQL p50 | SQL p99 | SQL q/s | SQL 1 client p50 | on x SQL | off x SQL | on equiv. req/s | x no-DB |',
      '| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...report.table.map(
        (r) =>
          `| ${r.kind} | ${ms(r.on?.p50)} | ${ms(r.on?.p99)} | ${ms(r.on?.p999)} | ${int(r.on?.perSecond)} | ${failuresOf(r.on)} | ` +
          `${ms(r.off?.p50)} | ${ms(r.off?.p99)} | ${ms(r.off?.p999)} | ${int(r.off?.perSecond)} | ${failuresOf(r.off)} | ` +
          `${ms(r.sql?.p50)} | ${ms(r.sql?.p99)} | ${int(r.sql?.rate)} | ${ms(r.sqlSingle?.p50)} | ${r.onOverSqlP50?.toFixed(2) ?? ''} | ${r.offOverSqlP50?.toFixed(2) ?? ''} | ` +
          `${int(r.equivalentRate)} | ${r.ofNoDb.toFixed(2)} |`,
      ),
      '',
      '## Freshness: from the POST\'s 201 to the first follower\'s feed page 1 listing it (polled every 50 ms)',
      '',
      '| phase | (post, follower) pairs | p50 ms | p99 ms | max ms | not seen in 5 s |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...fresh('mixed, caches on'),
      ...fresh('burst'),
      ...fresh('mixed, caches off'),
      '',
      `## Burst: ${report.settings.burstAccount ? JSON.stringify(report.settings.burstAccount) : ''} posts 3 times while its followers read`,
      '',
      ...kindHeader,
      ...kindsOf('burst'),
      '',
      '## Cold start: first feed page of members nobody has touched (following the most accounts)',
      '',
      ...kindHeader,
      ...kindsOf('cold start, quiet').map((l) => l.replace('| cold first page', '| quiet, fresh app, one at a time')),
      ...(report.phases['mixed, caches on']?.load.kinds ?? [])
        .filter((k) => k.kind === 'cold first page')
        .map((k) => `| during the mixed load | ${ms(k.p50)} | ${ms(k.p99)} | ${ms(k.p999)} | ${ms(k.max)} | | ${int(k.count)} | ${failuresOf(k)} |`),
      '',
      '## The two warm members (the feed bench\'s rows), the no-DB route',
      '',
      scenarioTable(report.scenarios),
      '',
      '## Raw SQL rows',
      '',
      scenarioTable(report.sql),
      '',
      '## Where the time went (CPU of each process over each phase; 100% = one core of 2)',
      '',
      ...phaseLines(report.phases),
      '',
    ]
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
