import { fileURLToPath } from 'node:url'
import { POOL_MAX } from '../../server/db/client'
import { startWorker } from './load'
import type { OpenLoadEnd, OpenLoadMessage, OpenLoadSetup, OpenLoadStep, RequestSamples, WriteKind } from './mixed-protocol'
import { postgresCpuMs } from './msg-cpu'
import {
  type CapacitySearch,
  classShares,
  mixDrawer,
  mixShares,
  type OpenIssue,
  type OpenStepResult,
  type OpenStepSettings,
  runOpenStep,
  type SearchSettings,
  searchCapacity,
  showMs,
} from './open-loop'
import { type Check, fromCapacity, type Scenario, scenarioTable } from './report'
import type { Viewer } from './sql-feed'
import { openSqlMixed } from './sql-mixed'
import { seededRandom } from './zipf'

/**
 * The mixed bench's capacity (bench/mixed.ts, `--mode open` or `both`): for the app with its caches, the app built
 * with `caches: false`, and the raw SQL of the mix, the highest arrival rate of the mix (bench/lib/open-loop.ts)
 * at which feed pages keep p99 < 100 ms and writes p99 < 200 ms.
 */

/** p99 limits in milliseconds: a feed page a member does not see as slow, a write that feels immediate. */
export const OPEN_LIMITS = { feed: 100, write: 200 } as const

/**
 * An active member's requests per minute in this mix's proportions, averaged over an active hour: a page of 20 posts
 * scrolled every 30-60 s while reading, a post or a profile opened now and then, a like every few minutes; about 3
 * (the middle of 2-4), with the idle minutes of the hour in the average. bench/README.md gives the reasoning.
 */
export const ACTIVE_MEMBER_REQUESTS_PER_MINUTE = 3

export type CapacityConfig = 'caches on' | 'caches off' | 'raw SQL'

export interface OpenOptions {
  /** Measured seconds of each step (after 1 s of settling at the step's rate). */
  openSeconds: number
  /** First rate of a search when no closed-loop result hints at one. */
  openStart: number
  /** Seconds at the first rate before the search, not judged. */
  warmupSeconds: number
  arrivals: 'poisson' | 'uniform'
  writeRatio: number
  database: string
}

export interface CapacityResult extends CapacitySearch {
  config: CapacityConfig
  /** The closed loop's throughput the search started from (half of it), when it ran first. */
  hint?: number
  /** The unjudged steady load before the search (none when a closed phase had just warmed the app). */
  warmup?: OpenStepResult
}

type Step = CapacitySearch['steps'][number]

const SETTLE_SECONDS = 1
const DRAIN_SECONDS = 5
/**
 * A p99 needs samples: with fewer than 100 it is the maximum, and one cold timeline fill or a descheduled process
 * fails a rate far below capacity. A judged step lasts at least long enough for 200 feed pages (two may be late)
 * and 30 writes at its rate, up to MAX_STEP_SECONDS; from about 110 req/s up (with one write in ten reads) that
 * is --open-seconds.
 */
const MIN_SAMPLES = { feed: 200, write: 30 }
const MAX_STEP_SECONDS = 12

function searchSettings(o: OpenOptions, hint: number | undefined): SearchSettings {
  return {
    start: hint !== undefined && hint > 0 ? Math.max(2, Math.round(hint / 2)) : o.openStart,
    factor: 2,
    precision: 1.1,
    minRate: 1,
    maxRate: 50_000,
    maxSteps: 10,
  }
}

/** How long a judged step at `rate` measures: --open-seconds, or longer to have MIN_SAMPLES. */
export function stepSeconds(o: OpenOptions, rate: number): number {
  const shares = classShares(o.writeRatio)
  const needed = Math.max(
    MIN_SAMPLES.feed / (rate * shares.feed),
    shares.write > 0 ? MIN_SAMPLES.write / (rate * shares.write) : 0,
  )
  return Math.min(MAX_STEP_SECONDS, Math.max(o.openSeconds, Math.ceil(needed)))
}

function stepSettings(o: OpenOptions, rate: number, judged: boolean): OpenStepSettings {
  return {
    rate,
    settleSeconds: SETTLE_SECONDS,
    measureSeconds: judged ? stepSeconds(o, rate) : o.warmupSeconds,
    drainSeconds: DRAIN_SECONDS,
    arrivals: o.arrivals,
    // The same arrivals at the same rate for every configuration.
    seed: 1_000 + Math.round(rate * 10),
    limits: OPEN_LIMITS,
    shares: classShares(o.writeRatio),
    judged,
  }
}

/** CPU over one step: the bench's own process (the app, or the raw SQL's client and generator) and PostgreSQL's. */
async function withCpu<T extends OpenStepResult>(
  database: string,
  run: () => Promise<T>,
  extra?: (r: T, ms: number) => Record<string, number>,
): Promise<T & { cpu: Record<string, number> }> {
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const pg0 = await postgresCpuMs(database)
  const r = await run()
  const pg1 = await postgresCpuMs(database)
  const cpu = process.cpuUsage(cpu0)
  const ms = performance.now() - t0
  return {
    ...r,
    cpu: {
      processPercent: ((cpu.user + cpu.system) / 1000 / ms) * 100,
      postgresPercent: ((pg1 - pg0) / ms) * 100,
      ...(extra ? extra(r, ms) : {}),
    },
  }
}

const workerFile = fileURLToPath(new URL('./open-load-worker.ts', import.meta.url))

/**
 * The capacity of the app listening at `setup.base`, its load in a child process. `hint` is the closed loop's
 * throughput when its phase has just run on this app: the search starts at half of it, without a warm-up (the
 * closed phase warmed the pool, the plans and the caches). Returns the inputs the load sent too.
 */
export async function appCapacity(
  config: 'caches on' | 'caches off',
  setup: OpenLoadSetup,
  o: OpenOptions,
  hint: number | undefined,
  log: (line: string) => void,
): Promise<{ result: CapacityResult; samples: RequestSamples }> {
  const t0 = performance.now()
  const worker = startWorker<OpenLoadMessage, unknown>(workerFile)
  try {
    await worker.ask({ type: 'setup', setup })
    const settings = searchSettings(o, hint)
    let warmup: OpenLoadStep | undefined
    if (hint === undefined) {
      log(`Open-loop capacity, app ${config}: ${o.warmupSeconds + SETTLE_SECONDS} s of warm-up at ${settings.start} req/s, then the search...`)
      warmup = await worker.ask<OpenLoadStep>({ type: 'step', step: stepSettings(o, settings.start, false) })
    } else {
      log(`Open-loop capacity, app ${config}: from ${settings.start} req/s (half the closed loop's ${Math.round(hint)})...`)
    }
    const search = await searchCapacity(
      settings,
      (rate) =>
        withCpu(
          o.database,
          () => worker.ask<OpenLoadStep>({ type: 'step', step: stepSettings(o, rate, true) }),
          (r, ms) => ({ loadPercent: (r.loadCpuMs / ms) * 100 }),
        ),
      log,
    )
    const end = await worker.ask<OpenLoadEnd>({ type: 'end' })
    log(`  app ${config}: ${search.capacity} req/s (${search.steps.length} steps, ${((performance.now() - t0) / 1000).toFixed(0)} s)`)
    return { result: { config, ...(hint !== undefined ? { hint } : {}), ...(warmup ? { warmup } : {}), ...search }, samples: end.samples }
  } finally {
    worker.stop()
  }
}

/** The share of each raw-SQL write among the writes: the raw SQL has likes and posts only, in their weights' ratio. */
function sqlWriteShares(weights: Record<WriteKind, number>): { like: number; post: number } {
  const total = weights.like + weights.post
  return total > 0 ? { like: weights.like / total, post: weights.post / total } : { like: 1, post: 0 }
}

/**
 * The raw SQL's saturated rate for the mix, from its closed-loop rows (one kind at a time, 50 clients): the mix's
 * harmonic mean, sum over kinds of share / rate. A starting point for the search, as the app's closed throughput is.
 */
export function sqlMixHint(rows: ReadonlyMap<string, Scenario>, writeRatio: number, weights: Record<WriteKind, number>): number | undefined {
  const writes = sqlWriteShares(weights)
  let seconds = 0
  for (const [draw, share] of mixShares(writeRatio)) {
    const parts: Array<[string, number]> =
      draw === 'write'
        ? [
            ['write: like', share * writes.like],
            ['write: post', share * writes.post],
          ]
        : [[draw, share]]
    for (const [kind, part] of parts) {
      if (part === 0) continue
      const rate = rows.get(kind)?.rate
      if (!rate) return undefined
      seconds += part / rate
    }
  }
  return seconds > 0 ? 1 / seconds : undefined
}

/**
 * The capacity of the raw SQL of the mix: the same arrivals and shares, each request the modules' own queries for its
 * kind (bench/lib/sql-mixed.ts) with inputs the app's open loop sent, on a pool of the app's size (POOL_MAX): the
 * same connections to PostgreSQL the app has. Writes are likes and posts only (the raw SQL has no repost, follow,
 * unfollow or block), in their weights' ratio, so writes keep their share of the mix.
 */
export async function sqlCapacity(
  url: string,
  samples: RequestSamples,
  viewers: readonly Viewer[],
  weights: Record<WriteKind, number>,
  o: OpenOptions,
  hint: number | undefined,
  log: (line: string) => void,
): Promise<CapacityResult> {
  if (samples.feedFirst.length === 0) throw new Error('no recorded feed requests to replay as raw SQL')
  const t0 = performance.now()
  const sql = openSqlMixed(url, POOL_MAX)
  try {
    const random = seededRandom(31)
    const draw = mixDrawer(o.writeRatio, random)
    const writes = sqlWriteShares(weights)
    const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)]
    const viewer = (i: number) => viewers[i] ?? { id: '', username: '', followingCount: 0 }
    const done = async (work: Promise<unknown>) => {
      await work
      return true
    }
    const feedFirst = (): OpenIssue => {
      const m = pick(samples.feedFirst) ?? 0
      return { kind: 'feed page 1', send: () => done(sql.feedFirst(viewer(m))) }
    }
    const next = (): OpenIssue => {
      switch (draw()) {
        case 'feed page 1':
          return feedFirst()
        case 'feed pages 2-4': {
          const s = pick(samples.feedNext)
          return s ? { kind: 'feed pages 2-4', send: () => done(sql.feedNext(viewer(s.member), s.cursor)) } : feedFirst()
        }
        case 'post page': {
          const s = pick(samples.postPage)
          return s ? { kind: 'post page', send: () => done(sql.postPage(viewer(s.member), s.postId)) } : feedFirst()
        }
        case 'profile': {
          const s = pick(samples.profile)
          return s ? { kind: 'profile', send: () => done(sql.profile(viewer(s.member), s.username)) } : feedFirst()
        }
        case 'write': {
          const like = pick(samples.like)
          const poster = pick(samples.post)
          if (like && (random() < writes.like || poster === undefined)) {
            return { kind: 'write: like', send: () => done(sql.like(viewer(like.member), like.postId)) }
          }
          if (poster !== undefined) {
            return { kind: 'write: post', send: () => done(sql.post(viewer(poster), 'Raw SQL bench note: a walk, a book, #bench')) }
          }
          return feedFirst()
        }
      }
    }
    const settings = searchSettings(o, hint)
    log(`Open-loop capacity, raw SQL (pool of ${POOL_MAX}): ${o.warmupSeconds + SETTLE_SECONDS} s of warm-up at ${settings.start} req/s, then the search...`)
    const warmup = await runOpenStep(stepSettings(o, settings.start, false), next)
    const search = await searchCapacity(settings, (rate) => withCpu(o.database, () => runOpenStep(stepSettings(o, rate, true), next)), log)
    log(`  raw SQL: ${search.capacity} req/s (${search.steps.length} steps, ${((performance.now() - t0) / 1000).toFixed(0)} s)`)
    return { config: 'raw SQL', ...(hint !== undefined ? { hint } : {}), warmup, ...search }
  } finally {
    await sql.close()
  }
}

/** Members one machine serves at once: the capacity over one active member's rate. */
export function activeMembers(capacity: number): { requestsPerMinute: number; members: number; range: [number, number] } {
  const at = (perMinute: number) => Math.round((capacity * 60) / perMinute)
  return { requestsPerMinute: ACTIVE_MEMBER_REQUESTS_PER_MINUTE, members: at(ACTIVE_MEMBER_REQUESTS_PER_MINUTE), range: [at(4), at(2)] }
}

export function capacityRows(results: readonly CapacityResult[]): Scenario[] {
  return results.map((r) =>
    fromCapacity(`open-loop capacity, ${r.config === 'raw SQL' ? 'raw SQL of the mix' : `app ${r.config}`}`, r.config === 'raw SQL' ? 'sql' : 'http', r),
  )
}

export function capacityChecks(results: readonly CapacityResult[]): Check[] {
  const on = results.find((r) => r.config === 'caches on')
  const sql = results.find((r) => r.config === 'raw SQL')
  if (!on || !sql) return []
  const ratio = sql.capacity > 0 ? on.capacity / sql.capacity : Infinity
  return [
    {
      name: "open-loop capacity of the mix with caches >= 2 x its raw SQL's capacity",
      pass: on.capacity > 0 && ratio >= 2,
      detail: `${on.capacity} req/s vs ${sql.capacity} req/s (x${Number.isFinite(ratio) ? ratio.toFixed(2) : 'inf'})`,
    },
  ]
}

const pct = (n: number | undefined) => (n === undefined ? '' : `${n.toFixed(0)}%`)

function stepLine(config: string, s: Step & { substituted?: number }, capacity: number): string {
  const mark = s.pass ? (s.rate === capacity ? 'PASS (capacity)' : 'PASS') : 'FAIL'
  const stopped = s.stoppedAfterSeconds !== undefined ? ` (stopped at ${s.stoppedAfterSeconds.toFixed(1)} s)` : ''
  return (
    `| ${config} | ${s.rate} | ${mark}${stopped} | ${s.measuredSeconds.toFixed(1)} | ${showMs(s.feed.p50)} | ${showMs(s.feed.p99)} | ${s.write.count > 0 ? showMs(s.write.p99) : ''} | ` +
    `${s.write.count} | ${showMs(s.all.p99)} | ${s.sent} | ${s.all.failed} | ${showMs(s.lagMs.p99)} | ${s.substituted ?? ''} | ` +
    `${pct(s.cpu?.processPercent)} | ${pct(s.cpu?.postgresPercent)} | ${pct(s.cpu?.loadPercent)} |`
  )
}

export function capacityMarkdown(results: readonly CapacityResult[], o: OpenOptions): string[] {
  if (results.length === 0) return []
  const on = results.find((r) => r.config === 'caches on')
  const members = on ? activeMembers(on.capacity) : undefined
  return [
    '## Capacity: the mix at a fixed arrival rate (open loop)',
    '',
    `The highest rate at which feed pages (1-4) keep p99 < ${OPEN_LIMITS.feed} ms and writes p99 < ${OPEN_LIMITS.write} ms, ` +
      `${o.arrivals} arrivals, each step 1 s of settling then ${o.openSeconds} s measured (longer at low rates, for at ` +
      `least ${MIN_SAMPLES.feed} feed pages and ${MIN_SAMPLES.write} writes, up to ${MAX_STEP_SECONDS} s), latency from each ` +
      "request's scheduled time; rates doubled until a step failed (a failing first rate is tried twice), then " +
      'bisected. "per second" below is the capacity; the latencies are those of the step at that rate.',
    '',
    scenarioTable(capacityRows(results)),
    '',
    ...(members
      ? [
          `One 2-core machine (app, PostgreSQL and the load generator on the same cores) serves about **${members.members.toLocaleString('en-US')} active members** ` +
            `at once, an active member making ${members.requestsPerMinute} requests a minute in this mix's proportions ` +
            `(${members.range[0].toLocaleString('en-US')} at 4 a minute, ${members.range[1].toLocaleString('en-US')} at 2).`,
          '',
        ]
      : []),
    '### Every step',
    '',
    '"lag p99" is how late the generator sent after the scheduled time (counted in the latencies); "instead" are ' +
      'arrivals that had no cursor or seen post yet and asked a first feed page; CPU is the bench process (the app, or ' +
      "the raw SQL's client), PostgreSQL's backends and the load process, 100% = one core.",
    '',
    '| configuration | req/s | result | seconds | feed p50 | feed p99 | write p99 | writes | all p99 | sent | failed | lag p99 | instead | process CPU | PostgreSQL CPU | load CPU |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.flatMap((r) => r.steps.map((s) => stepLine(r.config, s, r.capacity))),
    '',
  ]
}
