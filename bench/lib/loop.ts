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
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank] ?? 0
}

async function runFor(concurrency: number, milliseconds: number, task: () => Promise<void>, record: boolean) {
  const latencies: number[] = []
  let errors = 0
  let firstError: string | undefined
  const deadline = performance.now() + milliseconds
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now()
      try {
        await task()
        if (record) latencies.push(performance.now() - t0)
      } catch (err) {
        errors += 1
        firstError ??= err instanceof Error ? err.message : String(err)
      }
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { latencies, errors, firstError, elapsed: performance.now() - started }
}

export async function measureLoop(
  concurrency: number,
  warmupSeconds: number,
  durationSeconds: number,
  task: () => Promise<void>,
): Promise<LoopResult> {
  if (warmupSeconds > 0) await runFor(concurrency, warmupSeconds * 1000, task, false)
  const { latencies, errors, firstError, elapsed } = await runFor(concurrency, durationSeconds * 1000, task, true)
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
