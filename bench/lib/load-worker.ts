import autocannon from 'autocannon'
import type { LoadRequest, LoadResult } from './load'

/**
 * Child process that generates HTTP load with autocannon, so the load generator never shares an event loop (or a
 * core's worth of JavaScript) with the server being measured. Receives one LoadRequest over IPC, runs a warm-up
 * (a number of requests, not a time: see load.ts) then the measured run, answers with a LoadResult and exits.
 */

/** A measured run lasts `seconds`; a warm-up sends `amount` requests, however long they take. */
function run(request: LoadRequest, length: { seconds: number } | { amount: number }) {
  return autocannon({
    url: request.url,
    connections: request.connections,
    ...('seconds' in length ? { duration: length.seconds } : { amount: length.amount }),
    headers: request.headers,
    timeout: 10,
  })
}

const summary = (r: autocannon.Result): LoadResult => ({
  p50: r.latency.p50,
  p90: r.latency.p90,
  p99: r.latency.p99,
  max: r.latency.max,
  meanLatency: r.latency.average,
  requestsPerSecond: r.requests.average,
  requests: r.requests.total,
  non2xx: r.non2xx,
  errors: r.errors,
  timeouts: r.timeouts,
  bytesPerSecond: r.throughput.average,
  durationSeconds: r.duration,
})

process.once('message', async (message: LoadRequest) => {
  try {
    // Loopback only: the bench never sends traffic elsewhere.
    if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(message.url)) throw new Error(`refusing to load ${message.url}`)
    const warmup = message.warmupRequests > 0 ? summary(await run(message, { amount: message.warmupRequests })) : undefined
    const result = { ...summary(await run(message, { seconds: message.durationSeconds })), ...(warmup ? { warmup } : {}) }
    process.send?.({ ok: true, result })
  } catch (err) {
    process.send?.({ ok: false, error: err instanceof Error ? err.message : String(err) })
  }
  process.disconnect?.()
})
