import type { LoadResult } from './load'

/**
 * Child process that creates posts: `connections` clients, each sending one text post (the SPA's multipart
 * createPost) after another, the members taken round robin so per-member limits see many members as in a community,
 * not one hot key. Latencies are kept to the microsecond (autocannon rounds to the millisecond, too coarse for a
 * 1 ms target), and the clients stay below saturation so a latency is a post's cost, not a queue.
 */

export interface PostsLoadRequest {
  base: string
  tokens: string[]
  connections: number
  warmupRequests: number
  durationSeconds: number
}

const boundary = 'wrenbenchlimits'
const form = (n: number) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\nBench post ${n}: a walk, a book, #bench\r\n--${boundary}--\r\n`

let sent = 0

async function post(request: PostsLoadRequest): Promise<{ ms: number; ok: boolean }> {
  const n = sent++
  const started = performance.now()
  try {
    const res = await fetch(`${request.base}/api/posts`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${request.tokens[n % request.tokens.length]}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: form(n),
    })
    await res.arrayBuffer()
    return { ms: performance.now() - started, ok: res.status === 201 || res.status === 200 }
  } catch {
    return { ms: performance.now() - started, ok: false }
  }
}

async function run(request: PostsLoadRequest, length: { seconds: number } | { amount: number }): Promise<LoadResult> {
  const latencies: number[] = []
  let failures = 0
  const started = performance.now()
  const deadline = 'seconds' in length ? started + length.seconds * 1000 : Infinity
  let budget = 'amount' in length ? length.amount : Infinity
  const client = async () => {
    while (performance.now() < deadline && budget-- > 0) {
      const { ms, ok } = await post(request)
      latencies.push(ms)
      if (!ok) failures += 1
    }
  }
  await Promise.all(Array.from({ length: request.connections }, client))
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

process.once('message', async (message: PostsLoadRequest) => {
  try {
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(message.base)) throw new Error(`refusing to load ${message.base}`)
    const warmup = await run(message, { amount: message.warmupRequests })
    const result = { ...(await run(message, { seconds: message.durationSeconds })), warmup }
    process.send?.({ ok: true, result })
  } catch (err) {
    process.send?.({ ok: false, error: err instanceof Error ? err.message : String(err) })
  }
  process.disconnect?.()
})
