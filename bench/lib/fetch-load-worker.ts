import type { LoadResult } from './load'

/**
 * Child process that sends a list of requests round robin from `connections` clients, each one after another, and
 * keeps latencies to the microsecond (autocannon rounds to the millisecond, too coarse for a 1 ms target or for a
 * request that costs a tenth of one). Used below saturation, so a latency is a request's cost, not a queue.
 */

export interface FetchRequest {
  path: string
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
}

export interface FetchLoadRequest {
  base: string
  /** Sent in turn: many members' requests, so per-member caches and limits see a community, not one hot key. */
  requests: FetchRequest[]
  /** The statuses that count as success. */
  ok: number[]
  connections: number
  warmupRequests: number
  durationSeconds: number
}

let sent = 0

async function send(load: FetchLoadRequest): Promise<{ ms: number; ok: boolean }> {
  const request = load.requests[sent++ % load.requests.length]
  if (!request) throw new Error('no requests to send')
  const started = performance.now()
  try {
    const res = await fetch(`${load.base}${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
    })
    await res.arrayBuffer()
    return { ms: performance.now() - started, ok: load.ok.includes(res.status) }
  } catch {
    return { ms: performance.now() - started, ok: false }
  }
}

async function run(load: FetchLoadRequest, length: { seconds: number } | { amount: number }): Promise<LoadResult> {
  const latencies: number[] = []
  let failures = 0
  const started = performance.now()
  const deadline = 'seconds' in length ? started + length.seconds * 1000 : Infinity
  let budget = 'amount' in length ? length.amount : Infinity
  const client = async () => {
    while (performance.now() < deadline && budget-- > 0) {
      const { ms, ok } = await send(load)
      latencies.push(ms)
      if (!ok) failures += 1
    }
  }
  await Promise.all(Array.from({ length: load.connections }, client))
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const at = (q: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(3))
  return {
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: at(1),
    meanLatency: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
    requestsPerSecond: latencies.length / seconds,
    requests: latencies.length,
    non2xx: failures,
    errors: 0,
    timeouts: 0,
    bytesPerSecond: 0,
    durationSeconds: seconds,
  }
}

process.once('message', async (message: FetchLoadRequest) => {
  try {
    // Loopback only: the bench never sends traffic elsewhere.
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(message.base)) throw new Error(`refusing to load ${message.base}`)
    const warmup = await run(message, { amount: message.warmupRequests })
    const result = { ...(await run(message, { seconds: message.durationSeconds })), warmup }
    process.send?.({ ok: true, result })
  } catch (err) {
    process.send?.({ ok: false, error: err instanceof Error ? err.message : String(err) })
  }
  process.disconnect?.()
})
