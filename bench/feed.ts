import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { listen, login } from './lib/app-http'
import { buildApp } from '../server/app'
import {
  BENCH_DATABASE,
  benchDatabaseExists,
  benchUrl,
  dropBenchDatabase,
  serverVersion,
} from './lib/database'
import { measureHttp } from './lib/load'
import { seedBenchDatabase } from './lib/seeded'
import { addWritingFeatures, FEATURE_SHARES } from './lib/writing-features'
import pg from 'pg'
import { measureLoop } from './lib/loop'
import { buildNoDbApp, type FeedBody, syntheticFeedPage } from './lib/no-db-app'
import {
  type BenchReport,
  type Check,
  fromHttp,
  fromLoop,
  scenarioTable,
  type Scenario,
  warmupTable,
  writeReport,
} from './lib/report'
import { findGuardedMember, GUARDED, guardMember } from './lib/guarded-member'
import { findViewer, openSqlFeed, type Viewer } from './lib/sql-feed'
import { type BenchList, listKeys, makeBenchList } from './lib/list-setup'
import { measureWarmFeeds } from './lib/warm-feed'

/**
 * `npm run bench`: the home feed at scale, in one run.
 *
 * 1. A fresh PostgreSQL database `wren_bench`, seeded with 1M posts (server/seed), then the writing features on a
 *    share of them as cards now carry them (lib/writing-features.ts: a quarter of public top-level posts quote,
 *    a tenth of top-level posts have a poll, a fifth a link preview).
 * 2. The real app (buildApp) on a loopback port; autocannon in a child process at 50 connections against
 *    GET /api/posts/feed for a member following 2,000 accounts and one following 20. Then the same app built with
 *    its read caches off (`caches: false`): the cache-miss path, every request paying the database (session,
 *    feed keys, followees, cards, flags), so the table shows the cold path as well as the common one.
 * 3. The same feed SQL (the posts module's functions) on a `pg` pool, 50 clients in a loop.
 * 4. A route serving 20 fixed posts through the same response schema, without a database.
 * 5. A list timeline (GET /api/lists/{id}/posts) for a list of 500 of demo_reader's followees, read by demo_reader:
 *    HTTP with caches on and off and its keys through pg, with its p99 next to the home feed's (ratios).
 * 6. A table, the ratios, the targets, and bench/results/<date>-feed.{json,md}. The database is dropped at the end.
 *
 * Flags: --posts N (default 1,000,000), --users N (20,000), --duration S (10), --warmup N (10 requests per
 * connection before measuring),
 * --connections N (50), --keep-db (leave wren_bench for inspection), --reuse-db (skip seeding, use the kept one),
 * --plain (no quotes, polls or previews: the cards as they were before those features, to compare).
 */

const resultsDir = fileURLToPath(new URL('./results', import.meta.url))

function options() {
  const { values } = parseArgs({
    options: {
      posts: { type: 'string', default: '1000000' },
      users: { type: 'string', default: '20000' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      'keep-db': { type: 'boolean', default: false },
      'reuse-db': { type: 'boolean', default: false },
      plain: { type: 'boolean', default: false },
    },
    strict: true,
  })
  const number = (name: string, raw: string, min: number, max: number) => {
    const n = Number(raw)
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`)
    return n
  }
  return {
    posts: number('posts', values.posts, 1_000, 20_000_000),
    users: number('users', values.users, 10, 1_000_000),
    duration: number('duration', values.duration, 1, 120),
    warmup: number('warmup', values.warmup, 0, 1_000),
    connections: number('connections', values.connections, 1, 80),
    keepDb: values['keep-db'],
    reuseDb: values['reuse-db'],
    plain: values.plain,
  }
}

const log = (line: string) => console.log(line)

async function main() {
  const o = options()
  const url = benchUrl()
  // The machine may be shared: a busy one skews every number, so the load around the run is part of the result.
  const loadBefore = os.loadavg()[0] ?? 0
  const started = Date.now()
  const pending: string[] = []
  const scenarios: Scenario[] = []
  const plans: Record<string, string> = {}
  let cardsOnPage: Record<string, ReturnType<typeof cardFeatures>> | undefined

  let seed: Record<string, unknown>
  if (o.reuseDb && (await benchDatabaseExists())) {
    log(`Reusing ${new URL(url).pathname.slice(1)} (--reuse-db)`)
    seed = { reused: true }
  } else {
    log(`Seeding ${o.users.toLocaleString('en-US')} members and ${o.posts.toLocaleString('en-US')} posts...`)
    const result = await seedBenchDatabase(BENCH_DATABASE, o.users, o.posts, (l) => log(`  ${l}`))
    if (result.problems.length > 0) throw new Error(`seeded counters disagree: ${result.problems.join('; ')}`)
    seed = { users: o.users, posts: o.posts, rows: result.rows, seconds: result.seconds }
    log(`Seeded in ${result.seconds.total.toFixed(1)} s`)
    if (!o.plain) {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        const features = await addWritingFeatures(client)
        seed = { ...seed, features: { shares: FEATURE_SHARES, ...features } }
        log(
          `Writing features: ${features.quotes.toLocaleString('en-US')} quotes, ${features.polls.toLocaleString('en-US')} polls ` +
            `(${features.pollVotes.toLocaleString('en-US')} votes), ${features.previews.toLocaleString('en-US')} link previews ` +
            `of ${features.linkedPages} pages in ${features.seconds.toFixed(1)} s`,
        )
      } finally {
        await client.end()
      }
    }
  }

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wren-bench-'))
  const app = await buildApp({
    config: { databaseUrl: url, dataDir, rateLimits: false, logLevel: 'silent' },
    logger: false,
  })
  const sqlFeed = openSqlFeed(url, o.connections)
  let noDb: FastifyInstance | undefined
  let appClosed = false
  try {
    const base = await listen(app)
    const members: Array<{ label: string; viewer: Viewer; token: string }> = []
    const guarded = await findGuardedMember(sqlFeed.db)
    for (const [label, username] of [
      [LABELS.reader, 'demo_reader'],
      [LABELS.casual, 'demo_casual'],
      [LABELS.guarded, guarded],
    ] as const) {
      const viewer = await findViewer(sqlFeed.db, username)
      members.push({ label, viewer, token: await login(base, username) })
    }
    const reader = members.find((m) => m.label === LABELS.reader)
    let benchList: BenchList | undefined
    if (reader) {
      benchList = await makeBenchList(sqlFeed.db, reader.viewer, LIST_MEMBERS)
      log(`List of ${benchList.memberCount} of ${reader.viewer.username}'s followees made for the list timeline`)
    }
    const guardedMember = members.find((m) => m.label === LABELS.guarded)
    if (guardedMember) {
      log(`Guarding ${guarded}: ${GUARDED.blocks} blocks, ${GUARDED.mutedKeywords} muted keywords, ${GUARDED.blockedDomains} blocked domains...`)
      await guardMember(sqlFeed.db, base, guardedMember.token, guardedMember.viewer.id)
    }

    const load = (url: string, headers: Record<string, string> = {}, connections = o.connections) =>
      measureHttp({
        url,
        headers,
        connections,
        warmupRequests: o.warmup * connections,
        durationSeconds: o.duration,
      })

    // HTTP: the real feed.
    const warm = await measureWarmFeeds(
      base,
      members.map((m) => ({ label: m.label, username: m.viewer.username, token: m.token })),
      load,
      log,
      { singleConnection: true },
    )
    scenarios.push(...warm.scenarios)
    pending.push(...warm.pending)
    const fixedBody: FeedBody | undefined = warm.firstBody
    // The seed picks quotes, polls and previews by a hash of each post's id, which differs from seed to seed: what
    // each measured page carries is part of the result.
    if (warm.bodies.size > 0) {
      cardsOnPage = Object.fromEntries([...warm.bodies].map(([label, body]) => [label, cardFeatures(body)]))
      for (const [label, cards] of Object.entries(cardsOnPage)) log(`Page 1 of ${label}: ${JSON.stringify(cards)}`)
    }

    // The list timeline: the home feed's machinery over the list's members (docs/posts-and-feed.md, "List timelines").
    if (reader && benchList && byName(scenarios, `HTTP feed, ${LABELS.reader}`)) {
      const listUrl = `${base}/api/lists/${benchList.id}/posts`
      const first = await fetch(listUrl, { headers: { authorization: `Bearer ${reader.token}` } })
      if (first.status !== 200) pending.push(`GET /api/lists/{id}/posts answers ${first.status}: list timeline not measured`)
      else {
        const body = (await first.json()) as FeedBody
        log(`HTTP list timeline, ${LIST_LABEL} (${body.posts.length} posts on page 1)...`)
        scenarios.push(fromHttp(`HTTP list timeline, ${LIST_LABEL}`, await load(listUrl, { authorization: `Bearer ${reader.token}` })))
        const single = await load(listUrl, { authorization: `Bearer ${reader.token}` }, 1)
        scenarios.push(fromHttp(`HTTP list timeline, ${LIST_LABEL}, 1 connection`, single))
      }
    }

    // The cache-miss path: the same app with every read cache off, measured at the same concurrency.
    const cold = await buildApp({
      config: { databaseUrl: url, dataDir, rateLimits: false, logLevel: 'silent' },
      logger: false,
      caches: false,
    })
    try {
      const coldBase = await listen(cold)
      for (const m of members) {
        if (!byName(scenarios, `HTTP feed, ${m.label}`)) continue
        log(`HTTP feed, ${m.label}, caches off (cache-miss path)...`)
        const r = await load(`${coldBase}/api/posts/feed`, { authorization: `Bearer ${m.token}` })
        scenarios.push(fromHttp(`HTTP feed, ${m.label}, caches off`, r, 'every read from PostgreSQL'))
      }
      if (reader && benchList && byName(scenarios, `HTTP list timeline, ${LIST_LABEL}`)) {
        log(`HTTP list timeline, ${LIST_LABEL}, caches off (cache-miss path)...`)
        const r = await load(`${coldBase}/api/lists/${benchList.id}/posts`, { authorization: `Bearer ${reader.token}` })
        scenarios.push(fromHttp(`HTTP list timeline, ${LIST_LABEL}, caches off`, r, 'every read from PostgreSQL'))
      }
    } finally {
      await cold.close()
    }

    // SQL only: the same statements through pg.
    for (const m of members) {
      plans[m.label] = await sqlFeed.explain(m.viewer)
      log(`SQL feed keys, ${m.label}...`)
      const keys = await measureLoop(o.connections, o.warmup, o.duration, async () => {
        await sqlFeed.keys(m.viewer)
      })
      scenarios.push(fromLoop(`SQL feed keys, ${m.label}`, keys, 'feedKeys()'))
      log(`SQL feed keys + cards, ${m.label}...`)
      const page = await measureLoop(o.connections, o.warmup, o.duration, async () => {
        await sqlFeed.page(m.viewer)
      })
      scenarios.push(fromLoop(`SQL feed keys + cards, ${m.label}`, page, 'feedKeys() + hydratePosts()'))
    }

    if (reader && benchList) {
      const list = benchList
      log(`SQL list timeline keys, ${LIST_LABEL}...`)
      const keys = await measureLoop(o.connections, o.warmup, o.duration, async () => {
        await listKeys(sqlFeed.db, reader.viewer, list)
      })
      scenarios.push(fromLoop(`SQL list timeline keys, ${LIST_LABEL}`, keys, 'feedKeys(list source)'))
    }

    // No database: the ceiling of the web layer with this response schema. The real app stops first so nothing
    // else runs in this process meanwhile.
    await app.close()
    appClosed = true
    const body = fixedBody && fixedBody.posts.length === 20 ? fixedBody : syntheticFeedPage()
    noDb = await buildNoDbApp(body)
    const noDbBase = await listen(noDb)
    log('HTTP no-DB route, 20 fixed posts...')
    scenarios.push(
      fromHttp('HTTP no-DB, 20 fixed posts', await load(`${noDbBase}/api/posts/feed`), fixedBody ? 'real page' : 'synthetic page'),
    )
  } finally {
    await noDb?.close()
    if (!appClosed) await app.close()
    await sqlFeed.close()
    await rm(dataDir, { recursive: true, force: true })
    if (!o.keepDb) await dropBenchDatabase()
  }

  const report: BenchReport = {
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
    seed: cardsOnPage ? { ...seed, firstPageCards: cardsOnPage } : seed,
    settings: { connections: o.connections, durationSeconds: o.duration, warmupRoundsPerConnection: o.warmup, page: 20 },
    scenarios,
    ratios: ratios(scenarios),
    checks: checks(scenarios),
    plans,
    pending,
  }
  console.log(`\n${scenarioTable(scenarios)}\n\n${warmupTable(scenarios)}\n`)
  for (const [k, v] of Object.entries(report.ratios)) console.log(`${k}: ${v.toFixed(2)}`)
  for (const c of report.checks) console.log(`${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`)
  for (const p of pending) console.log(`PENDING ${p}`)
  const files = await writeReport(resultsDir, report)
  console.log(`\nWrote ${path.relative(process.cwd(), files.json)} and ${path.relative(process.cwd(), files.markdown)}`)
  console.log(`Total ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

/** What the measured page carries: the cards the feed rows are timed with. */
function cardFeatures(body: FeedBody) {
  const posts = body.posts
  return {
    posts: posts.length,
    bytes: JSON.stringify(body).length,
    quotes: posts.filter((p) => p.quote !== null).length,
    polls: posts.filter((p) => p.poll !== null).length,
    ownVotes: posts.filter((p) => (p.poll?.ownVotes.length ?? 0) > 0).length,
    previews: posts.filter((p) => p.linkPreview !== null).length,
  }
}

const byName = (scenarios: Scenario[], name: string) => scenarios.find((s) => s.name === name)

/** The measured members: demo_reader, demo_casual, and a second 2,000-follow member with blocks and mutes. */
/** The list timeline's list: this many of demo_reader's followees, read by demo_reader. */
const LIST_MEMBERS = 500
const LIST_LABEL = '500 members'

const LABELS = {
  reader: '2,000 followed',
  casual: '20 followed',
  guarded: '2,000 followed, 200 blocks, 100 muted keywords, 20 blocked domains',
} as const

function ratios(scenarios: Scenario[]): Record<string, number> {
  const out: Record<string, number> = {}
  const noDb = byName(scenarios, 'HTTP no-DB, 20 fixed posts')
  for (const label of Object.values(LABELS)) {
    const feed = byName(scenarios, `HTTP feed, ${label}`)
    const keys = byName(scenarios, `SQL feed keys, ${label}`)
    const page = byName(scenarios, `SQL feed keys + cards, ${label}`)
    if (!feed) continue
    if (keys) {
      out[`feed/raw-SQL p50 latency, ${label}`] = feed.p50 / keys.p50
      out[`feed/raw-SQL throughput, ${label}`] = feed.rate / keys.rate
    }
    if (page) out[`feed/SQL keys+cards throughput, ${label}`] = feed.rate / page.rate
    const cold = byName(scenarios, `HTTP feed, ${label}, caches off`)
    if (cold && page) out[`feed caches off/SQL keys+cards throughput, ${label}`] = cold.rate / page.rate
    if (cold) out[`feed/feed caches off throughput, ${label}`] = feed.rate / cold.rate
    if (noDb) {
      out[`feed/no-DB throughput, ${label}`] = feed.rate / noDb.rate
      out[`feed/no-DB p50 latency, ${label}`] = feed.p50 / noDb.p50
    }
  }
  // The list timeline next to the home feed of the same reader: how much a list page costs compared with Home.
  const home = byName(scenarios, `HTTP feed, ${LABELS.reader}`)
  const list = byName(scenarios, `HTTP list timeline, ${LIST_LABEL}`)
  if (home && list) {
    out[`list timeline/home feed p99, ${LIST_LABEL} vs ${LABELS.reader}`] = list.p99 / home.p99
    out[`list timeline/home feed throughput, ${LIST_LABEL} vs ${LABELS.reader}`] = list.rate / home.rate
  }
  const homeCold = byName(scenarios, `HTTP feed, ${LABELS.reader}, caches off`)
  const listCold = byName(scenarios, `HTTP list timeline, ${LIST_LABEL}, caches off`)
  if (homeCold && listCold) out[`list timeline/home feed p99, caches off`] = listCold.p99 / homeCold.p99
  const homeKeys = byName(scenarios, `SQL feed keys, ${LABELS.reader}`)
  const listSqlKeys = byName(scenarios, `SQL list timeline keys, ${LIST_LABEL}`)
  if (homeKeys && listSqlKeys) out[`list timeline/home feed SQL keys p99`] = listSqlKeys.p99 / homeKeys.p99
  return out
}

function checks(scenarios: Scenario[]): Check[] {
  const out: Check[] = []
  const noDb = byName(scenarios, 'HTTP no-DB, 20 fixed posts')
  for (const s of scenarios) {
    if (s.failures > 0) out.push({ name: `${s.name} without failures`, pass: false, detail: `${s.failures} failed` })
    if (s.count === 0) out.push({ name: `${s.name} completes requests`, pass: false, detail: 'none finished in time' })
  }
  for (const label of Object.values(LABELS)) {
    const feed = byName(scenarios, `HTTP feed, ${label}`)
    if (!feed) continue
    out.push({ name: `feed p99 < 30 ms, ${label}`, pass: feed.p99 < 30, detail: `p99 ${feed.p99.toFixed(1)} ms` })
    out.push({ name: `feed without non-2xx, ${label}`, pass: feed.failures === 0, detail: `${feed.failures} failed` })
    if (noDb) {
      const ratio = feed.rate / noDb.rate
      out.push({
        name: `feed req/s >= 0.5 x no-DB req/s, ${label}`,
        pass: ratio >= 0.5,
        detail: `${Math.round(feed.rate)} vs ${Math.round(noDb.rate)} req/s (x${ratio.toFixed(2)})`,
      })
    }
  }
  return out
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
