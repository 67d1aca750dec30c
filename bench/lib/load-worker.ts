import autocannon from 'autocannon'
import type { LoadRequest, LoadResult } from './load'

/**
 * Child process that generates HTTP load with autocannon, so the load generator never shares an event loop (or a
 * core's worth of JavaScript) with the server being measured. Receives one LoadRequest over IPC, runs a warm-up
 * then the measured run, answers with a LoadResult and exits.
 */

function run(request: LoadRequest, seconds: number) {
  return autocannon({
    url: request.url,
    connections: request.connections,
    duration: seconds,
    headers: request.headers,
    // Loopback only: the bench never sends traffic elsewhere.
    timeout: 10,
  })
}

process.once('message', async (message: LoadRequest) => {
  try {
    if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(message.url)) throw new Error(`refusing to load ${message.url}`)
    if (message.warmupSeconds > 0) await run(message, message.warmupSeconds)
    const r = await run(message, message.durationSeconds)
    const result: LoadResult = {
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
    }
    process.send?.({ ok: true, result })
  } catch (err) {
    process.send?.({ ok: false, error: err instanceof Error ? err.message : String(err) })
  }
  process.disconnect?.()
})
