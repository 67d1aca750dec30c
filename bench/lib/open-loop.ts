import { percentile } from './loop'
import { seededRandom } from './zipf'

/**
 * Open-loop load for the mixed bench (bench/mixed.ts, `--mode open`): requests arrive at a fixed rate whatever the
 * server does, the way members' requests do. A closed loop (N connections, each sending its next request when the
 * previous one answered) slows down with the server, so past saturation it measures its own queue; an open loop keeps
 * sending, and the latencies show whether the server keeps up with that rate.
 *
 * Every latency runs from the request's scheduled time, not from when it left: a generator that falls behind (its own
 * event loop busy, every keep-alive socket taken) cannot hide the wait it caused (coordinated omission). A request
 * that fails (socket error, 5xx, a failed query) or is still unanswered after the drain counts as infinitely late.
 *
 * Used by the app's load process (bench/lib/open-load-worker.ts) and in process for the raw SQL of the mix.
 */

export type OpenClass = 'feed' | 'write' | 'other'

/** What each request kind is judged as: feed pages against the feed limit, writes against the write limit. */
export function classOf(kind: string): OpenClass {
  if (kind === 'feed page 1' || kind === 'feed pages 2-4') return 'feed'
  return kind.startsWith('write') ? 'write' : 'other'
}

/** A draw of the mix: the read kinds, or a write (its kind chosen by the caller's weights). */
export type OpenDraw = 'feed page 1' | 'feed pages 2-4' | 'post page' | 'profile' | 'write'

/**
 * The closed loop's session in per-request proportions: feed page 1, three more pages, a post page and a profile
 * (6 reads), each followed by a write with probability `writeRatio`. With 0.1: 15.2% page 1, 45.5% pages 2-4, 15.2%
 * post pages, 15.2% profiles, 9.1% writes.
 */
export function mixShares(writeRatio: number): Array<[OpenDraw, number]> {
  const total = 6 * (1 + writeRatio)
  return [
    ['feed page 1', 1 / total],
    ['feed pages 2-4', 3 / total],
    ['post page', 1 / total],
    ['profile', 1 / total],
    ['write', (6 * writeRatio) / total],
  ]
}

export function mixDrawer(writeRatio: number, random: () => number): () => OpenDraw {
  const shares = mixShares(writeRatio)
  return () => {
    let u = random()
    for (const [draw, share] of shares) {
      if (u < share) return draw
      u -= share
    }
    return 'feed page 1'
  }
}

/** The expected share of feed pages and of writes among the mix's requests. */
export function classShares(writeRatio: number): { feed: number; write: number } {
  const shares = new Map(mixShares(writeRatio))
  return { feed: (shares.get('feed page 1') ?? 0) + (shares.get('feed pages 2-4') ?? 0), write: shares.get('write') ?? 0 }
}

export interface OpenStepSettings {
  /** Requests per second offered. */
  rate: number
  /** Sent at the rate first, not measured: the queues reach the rate's steady state. */
  settleSeconds: number
  measureSeconds: number
  /** After the last arrival, how long to wait for answers before counting the rest as unanswered. */
  drainSeconds: number
  /** Poisson: exponential gaps, as independent members arrive; uniform: evenly spaced. */
  arrivals: 'poisson' | 'uniform'
  seed: number
  /** p99 limits in milliseconds. */
  limits: { feed: number; write: number }
  /** Expected share of each class among the requests: lets a step stop once its p99 can no longer pass. */
  shares: { feed: number; write: number }
  /** False for a warm-up: never stopped early, its verdict not used. */
  judged: boolean
}

/** One arrival: what it is, and how to send it (resolves true when answered, false on failure). */
export interface OpenIssue {
  kind: string
  send: () => Promise<boolean>
}

export interface OpenLatency {
  count: number
  p50: number
  p90: number
  p99: number
  max: number
  /** Failed or unanswered: counted as infinitely late. */
  failed: number
}

export interface OpenStepResult {
  rate: number
  arrivals: 'poisson' | 'uniform'
  /** The measured window: its planned length, or until the step stopped early. */
  measuredSeconds: number
  /** Requests scheduled in the measured window (all sent: an open loop never skips one). */
  sent: number
  kinds: Array<{ kind: string } & OpenLatency>
  feed: OpenLatency
  write: OpenLatency
  all: OpenLatency
  /** How long after its scheduled time each request was handed to the client: the generator's own delay. */
  lagMs: { p50: number; p99: number; max: number }
  /** Still unanswered after the drain (counted in `failed`). */
  unanswered: number
  /** Set when the step stopped early: the p99 of a class could no longer pass. */
  stoppedAfterSeconds?: number
  pass: boolean
  verdict: string
}

interface Pending {
  kind: string
  cls: OpenClass
  scheduled: number
}

function latencyOf(values: number[], failed: number): OpenLatency {
  const sorted = Float64Array.from(values).sort()
  return {
    count: values.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? 0,
    failed,
  }
}

/** How many of `n` samples may be at or over the limit with the p99 (nearest rank) still under it. */
function allowedLate(expected: number): number {
  const n = Math.floor(expected)
  return n - Math.ceil(0.99 * n)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))

/** Milliseconds to show: a failed or unanswered request makes a percentile infinite. */
export const showMs = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : n < 100 ? 1 : 0) : 'failed')

/**
 * Sends `next()` at `rate` for settleSeconds + measureSeconds and times the requests scheduled in the measured window.
 * A judged step stops early once more feed pages (or writes) are late than its p99 could allow even with a quarter
 * more requests than expected: the rest of the window would only deepen the server's queue and the time to drain it.
 */
export async function runOpenStep(s: OpenStepSettings, next: () => OpenIssue): Promise<OpenStepResult> {
  const random = seededRandom(s.seed)
  const gapMs = () => (s.arrivals === 'poisson' ? -Math.log(1 - random()) : 1) * (1000 / s.rate)
  const start = performance.now()
  const windowStart = start + s.settleSeconds * 1000
  let windowEnd = windowStart + s.measureSeconds * 1000
  const limitOf = (cls: OpenClass) => (cls === 'feed' ? s.limits.feed : cls === 'write' ? s.limits.write : Infinity)

  const latencies = new Map<string, number[]>()
  const failedBy = new Map<string, number>()
  const late = { feed: 0, write: 0 }
  const lags: number[] = []
  const inFlight = new Set<Pending>()
  const answers: Array<Promise<void>> = []
  let sent = 0
  let stoppedAfterSeconds: number | undefined

  const fire = (scheduled: number) => {
    const issue = next()
    const measured = scheduled >= windowStart
    const cls = classOf(issue.kind)
    const pending: Pending = { kind: issue.kind, cls, scheduled }
    if (measured) {
      sent += 1
      lags.push(performance.now() - scheduled)
      inFlight.add(pending)
    }
    const done = issue.send().then(
      (ok) => ok,
      () => false,
    )
    answers.push(
      done.then((ok) => {
        if (!measured || !inFlight.delete(pending)) return
        const ms = ok ? performance.now() - scheduled : Infinity
        let list = latencies.get(issue.kind)
        if (!list) latencies.set(issue.kind, (list = []))
        list.push(ms)
        if (!ok) failedBy.set(issue.kind, (failedBy.get(issue.kind) ?? 0) + 1)
        if ((cls === 'feed' || cls === 'write') && ms >= limitOf(cls)) late[cls] += 1
      }),
    )
  }

  const expected = (share: number) => s.rate * s.measureSeconds * share * 1.25 + 10
  const beyondHope = () => {
    const now = performance.now()
    const lateNow = { ...late }
    for (const p of inFlight) if ((p.cls === 'feed' || p.cls === 'write') && now - p.scheduled >= limitOf(p.cls)) lateNow[p.cls] += 1
    if (lateNow.feed > allowedLate(expected(s.shares.feed))) return true
    return s.shares.write > 0 && lateNow.write > allowedLate(expected(s.shares.write))
  }

  let at = start + gapMs()
  let checkedAt = windowStart
  while (at < windowEnd) {
    const now = performance.now()
    while (at <= now && at < windowEnd) {
      fire(at)
      at += gapMs()
    }
    if (s.judged && now >= checkedAt + 100) {
      checkedAt = now
      if (beyondHope()) {
        stoppedAfterSeconds = (now - windowStart) / 1000
        windowEnd = now
        break
      }
    }
    // Timers fire at millisecond granularity: every arrival due by then goes out at the next turn, its delay counted.
    await sleep(Math.min(at, windowEnd) - performance.now())
  }

  // The drain: answers of the measured window, up to drainSeconds.
  const all = Promise.all(answers)
  await Promise.race([all, sleep(s.drainSeconds * 1000)])
  const unanswered = inFlight.size
  for (const p of inFlight) {
    latencies.set(p.kind, [...(latencies.get(p.kind) ?? []), Infinity])
    failedBy.set(p.kind, (failedBy.get(p.kind) ?? 0) + 1)
  }
  inFlight.clear()

  const byClass = (cls: OpenClass) => {
    const values: number[] = []
    let failed = 0
    for (const [kind, list] of latencies) {
      if (classOf(kind) !== cls) continue
      values.push(...list)
      failed += failedBy.get(kind) ?? 0
    }
    return latencyOf(values, failed)
  }
  const feed = byClass('feed')
  const write = byClass('write')
  const allValues = [...latencies.values()].flat()
  const lagSorted = Float64Array.from(lags).sort()
  const measuredSeconds = (windowEnd - windowStart) / 1000
  const feedOk = feed.count > 0 && feed.p99 < s.limits.feed
  const writeOk = write.count === 0 || write.p99 < s.limits.write
  const verdict =
    `feed p99 ${showMs(feed.p99)} ms (< ${s.limits.feed}: ${feedOk ? 'yes' : 'no'}), ` +
    (write.count > 0 ? `write p99 ${showMs(write.p99)} ms (< ${s.limits.write}: ${writeOk ? 'yes' : 'no'})` : 'no writes') +
    (stoppedAfterSeconds !== undefined ? `; stopped after ${stoppedAfterSeconds.toFixed(1)} s of ${s.measureSeconds}` : '') +
    (unanswered > 0 ? `; ${unanswered} unanswered after the drain` : '')
  return {
    rate: s.rate,
    arrivals: s.arrivals,
    measuredSeconds,
    sent,
    kinds: [...latencies.entries()].map(([kind, list]) => ({ kind, ...latencyOf(list, failedBy.get(kind) ?? 0) })),
    feed,
    write,
    all: latencyOf(allValues, [...failedBy.values()].reduce((a, b) => a + b, 0)),
    lagMs: { p50: percentile(lagSorted, 50), p99: percentile(lagSorted, 99), max: lagSorted[lagSorted.length - 1] ?? 0 },
    unanswered,
    ...(stoppedAfterSeconds !== undefined ? { stoppedAfterSeconds } : {}),
    pass: feedOk && writeOk && stoppedAfterSeconds === undefined,
    verdict,
  }
}

export interface SearchSettings {
  /** The first rate tried. */
  start: number
  /** Each step up (or down, from a failing start) multiplies the rate by this. */
  factor: number
  /** Bisect until the highest passing and lowest failing rates are within this ratio. */
  precision: number
  minRate: number
  maxRate: number
  maxSteps: number
}

export interface CapacitySearch {
  /** The highest rate that held both limits (0 if even minRate failed). */
  capacity: number
  /** The lowest rate that failed (undefined if maxRate passed). */
  failedAt: number | undefined
  /** Every step in the order run, with what it cost the machine. */
  steps: Array<OpenStepResult & { cpu?: Record<string, number> }>
}

/**
 * The highest arrival rate whose step passes: up from `start` by `factor` until a step fails (down by it while the
 * start fails), then bisection (geometric midpoints) between the highest pass and the lowest fail. Noise can make a
 * rate pass above one that failed; the bracket only ever narrows, and the answer is the highest rate that passed
 * below the lowest that failed. A failing start is tried twice before the search goes down.
 */
export async function searchCapacity(
  s: SearchSettings,
  step: (rate: number) => Promise<OpenStepResult & { cpu?: Record<string, number> }>,
  log: (line: string) => void,
): Promise<CapacitySearch> {
  const steps: CapacitySearch['steps'] = []
  let lo = 0
  let hi: number | undefined
  const round = (r: number) => Math.max(s.minRate, Math.min(s.maxRate, r < 100 ? Math.round(r * 10) / 10 : Math.round(r)))
  const tryRate = async (rate: number) => {
    const r = await step(rate)
    steps.push(r)
    log(`    ${rate} req/s: ${r.pass ? 'PASS' : 'FAIL'}, ${r.verdict}`)
    if (r.pass) lo = Math.max(lo, rate)
    else hi = hi === undefined ? rate : Math.min(hi, rate)
    return r.pass
  }
  let rate = round(s.start)
  let passed = await tryRate(rate)
  if (!passed) {
    // The first judged step meets whatever the warm-up left cold (timelines, plans, a fresh pool): one failure there
    // would send the whole search down, so the rate is tried once more first.
    hi = undefined
    passed = await tryRate(rate)
  }
  if (passed) {
    while (hi === undefined && rate < s.maxRate && steps.length < s.maxSteps) {
      rate = round(rate * s.factor)
      await tryRate(rate)
    }
  } else {
    while (lo === 0 && rate > s.minRate && steps.length < s.maxSteps) {
      rate = round(rate / s.factor)
      await tryRate(rate)
    }
  }
  while (lo > 0 && hi !== undefined && hi / lo > s.precision && steps.length < s.maxSteps) {
    const mid = round(Math.sqrt(lo * hi))
    if (mid <= lo || mid >= hi) break
    await tryRate(mid)
  }
  return { capacity: lo, failedAt: hi, steps }
}
