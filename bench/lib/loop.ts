/**
 * Closed-loop load inside this process: `concurrency` workers each run `task` back to back until the time is up,
 * the way autocannon's connections do over HTTP. Used for the feed SQL through `pg` alone.
 */

export interface LoopResult {
  /** Milliseconds. */
  p50: number
  p90: number
  p99: number
  max: number
  meanLatency: number
  queriesPerSecond: number
  queries: number
  errors: number
  firstError?: string
  durationSeconds: number
  warmup?: Omit<LoopResult, 'warmup'>
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank] ?? 0
}

/** Each worker runs until the deadline (a measured run) or for a number of rounds (a warm-up). */
async function run(concurrency: number, until: { milliseconds: number } | { rounds: number }, task: () => Promise<void>) {
  const latencies: number[] = []
  let errors = 0
  let firstError: string | undefined
  const deadline = 'milliseconds' in until ? performance.now() + until.milliseconds : Infinity
  const rounds = 'rounds' in until ? until.rounds : Infinity
  const worker = async () => {
    for (let round = 0; round < rounds && performance.now() < deadline; round += 1) {
      const t0 = performance.now()
      try {
        await task()
        latencies.push(performance.now() - t0)
      } catch (err) {
        errors += 1
        firstError ??= err instanceof Error ? err.message : String(err)
      }
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  return summarize(latencies, errors, firstError, performance.now() - started)
}

function summarize(latencies: number[], errors: number, firstError: string | undefined, elapsed: number): LoopResult {
  const sorted = Float64Array.from(latencies).sort()
  const sum = latencies.reduce((a, b) => a + b, 0)
  return {
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? 0,
    meanLatency: latencies.length > 0 ? sum / latencies.length : 0,
    queriesPerSecond: latencies.length / (elapsed / 1000),
    queries: latencies.length,
    errors,
    ...(firstError ? { firstError } : {}),
    durationSeconds: elapsed / 1000,
  }
}

/**
 * `warmupRounds` per worker first (a count, not a time: see LoadRequest.warmupRequests in load.ts), then the
 * measured run of `durationSeconds`.
 */
export async function measureLoop(
  concurrency: number,
  warmupRounds: number,
  durationSeconds: number,
  task: () => Promise<void>,
): Promise<LoopResult> {
  const warmup = warmupRounds > 0 ? await run(concurrency, { rounds: warmupRounds }, task) : undefined
  const measured = await run(concurrency, { milliseconds: durationSeconds * 1000 }, task)
  return { ...measured, ...(warmup ? { warmup } : {}) }
}
