import { randomBytes } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import http from 'node:http'
import { performance } from 'node:perf_hooks'
import { io as connect, type Socket } from 'socket.io-client'
import type { MessageEvent } from '../../src/api/contract/socket-events'
import type { EchoDbSend, Latency, LoadCommand, LoadMessage, LoadOutcome, LoadPlan, WindowOutcome } from './msg-protocol'

/**
 * The messaging bench's load generator, in its own process so it never shares the server's event loop. Receives a
 * LoadPlan over IPC:
 *
 * 1. connects one socket.io client per member (websocket, `auth: { token }` as the SPA's src/api/socket.ts; the
 *    echo baseline sends `auth: { userId }` instead), `connectConcurrency` handshakes at a time;
 * 2. sends messages on a fixed schedule (open loop: a slow answer never delays the next send), pair after pair,
 *    alternating who writes; Wren: POST /api/messages/conversations/{id}/messages over keep-alive HTTP, echo: a
 *    socket emit;
 * 3. times each message from just before the send call to the `new_message` on the recipient's socket. Sender and
 *    recipient sockets live in this process, so both ends read the same clock.
 *
 * Each message's envelope carries its sequence number in the IV field (`m1.<iv>.<ciphertext>`, the SPA's format:
 * src/api/contract/encryption.ts) and random bytes as ciphertext: nothing secret, and the receipt finds its send
 * without waiting for the HTTP answer (the socket event often arrives first).
 */

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank] ?? 0
}

export function summarize(values: number[]): Latency {
  const sorted = Float64Array.from(values).sort()
  return {
    count: values.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? 0,
    mean: values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : 0,
  }
}

const envelope = (seq: number) => {
  const iv = Buffer.alloc(12)
  iv.writeUInt32BE(seq, 8)
  return `m1.${iv.toString('base64url')}.${randomBytes(48).toString('base64url')}`
}

const seqOf = (content: string): number => {
  const iv = content.split('.')[1]
  return iv ? Buffer.from(iv, 'base64url').readUInt32BE(8) : -1
}

/** What one measured window collects. */
interface Window {
  delivery: number[]
  byServer: number[][]
  http: number[]
  httpFailed: number
  httpFirstError?: string
  misdelivered: number
}

interface InFlight {
  t0: number
  recipient: number
  /** The measured window it belongs to; none in the warm-up. */
  window: Window | undefined
  delivered: boolean
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function connectAll(plan: LoadPlan, sockets: Socket[]): Promise<LoadOutcome['connect']> {
  const latencies: number[] = []
  let failed = 0
  let firstError: string | undefined
  let next = 0
  const started = performance.now()
  const one = async (i: number) => {
    const member = plan.members[i]
    const url = plan.socketUrls[i % plan.socketUrls.length]
    if (!member || !url) return
    const t0 = performance.now()
    const socket = connect(url, {
      auth: plan.mode === 'wren' ? { token: member.token } : { userId: member.id },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      timeout: 60_000,
    })
    sockets[i] = socket
    await new Promise<void>((resolve) => {
      socket.once('connect', () => {
        latencies.push(performance.now() - t0)
        resolve()
      })
      socket.once('connect_error', (err: Error) => {
        failed += 1
        firstError ??= err.message
        resolve()
      })
    })
  }
  const worker = async () => {
    while (next < plan.members.length) await one(next++)
  }
  await Promise.all(Array.from({ length: plan.connectConcurrency }, worker))
  return {
    sockets: latencies.length,
    failed,
    seconds: (performance.now() - started) / 1000,
    latency: summarize(latencies),
    ...(firstError ? { firstError } : {}),
  }
}

async function run(
  plan: LoadPlan,
  report: (m: LoadMessage) => void,
  nextCommand: () => Promise<LoadCommand>,
): Promise<LoadOutcome> {
  for (const url of [...plan.socketUrls, plan.sendUrl]) {
    // Loopback only: the bench never sends traffic elsewhere.
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) throw new Error(`refusing to load ${url}`)
  }
  const sockets: Socket[] = new Array<Socket>(plan.members.length)
  const connectResult = await connectAll(plan, sockets)
  report({ kind: 'connected' })
  // Idle before any message (after the run a saturated server would still be working off its backlog): a moment
  // for the handshakes' tail, then the connected sockets' own cost.
  await sleep(1000)
  report({ kind: 'idle-start' })
  await sleep(plan.idleSeconds * 1000)
  report({ kind: 'idle-end' })

  const inFlight = new Map<number, InFlight>()
  const warmupDelivery: number[] = []
  sockets.forEach((socket, index) => {
    const own = plan.members[index]?.id
    socket.on('new_message', (event: MessageEvent) => {
      const now = performance.now()
      // Every send also reaches the sender's own sockets (their other tabs): not a delivery.
      if (event.message.senderId === own) return
      const f = inFlight.get(seqOf(event.message.content))
      if (!f || f.delivered) return
      if (f.recipient !== index) {
        // Counted in the measured windows (a warm-up one would still show in `warmup.delivered`).
        if (f.window) f.window.misdelivered += 1
        return
      }
      f.delivered = true
      const latency = now - f.t0
      if (f.window) {
        f.window.delivery.push(latency)
        f.window.byServer[index % plan.socketUrls.length]?.push(latency)
      } else warmupDelivery.push(latency)
    })
  })

  const TRACE = process.env.BENCH_MSG_TRACE
  const agent = new http.Agent({ keepAlive: true, maxSockets: plan.httpConnections })
  const post = (path: string, headers: Record<string, string>, payload: unknown, window: Window | undefined, t0: number) => {
    const failed = (error: string) => {
      if (!window) return
      window.httpFailed += 1
      window.httpFirstError ??= error
    }
    const body = JSON.stringify(payload)
    const req = http.request(
      `${plan.sendUrl}${path}`,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          if (res.statusCode !== 201 && res.statusCode !== 200) {
            failed(`${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`)
          } else {
            const ms = performance.now() - t0
            window?.http.push(ms)
            // Diagnostics (msg-server.ts, BENCH_MSG_TRACE): a slow answer with the wall clock it ended at.
            if (TRACE && ms >= 15) appendFileSync(TRACE, JSON.stringify({ t: Date.now(), pid: process.pid, k: 'client-http', ms: +ms.toFixed(1) }) + '\n')
          }
        })
      },
    )
    req.on('error', (err) => failed(err.message))
    req.end(body)
  }

  let seq = 0
  const sendOne = (window: Window | undefined) => {
    const pairs = plan.pairs
    const pair = pairs[seq % pairs.length]
    if (!pair) return
    // Pair k in round r: a writes to b when k + r is even, else b answers. Consecutive sends alternate direction
    // (with two processes, a's socket is on A and b's on B: same-process and cross-process deliveries interleave
    // in time) and every pair alternates from round to round.
    const forward = ((seq % pairs.length) + Math.floor(seq / pairs.length)) % 2 === 0
    const from = forward ? pair.a : pair.b
    const to = forward ? pair.b : pair.a
    const sender = plan.members[from]
    const recipient = plan.members[to]
    if (!sender || !recipient) return
    const content = envelope(seq)
    const t0 = performance.now()
    inFlight.set(seq, { t0, recipient: to, window, delivered: false })
    if (plan.mode === 'wren') {
      const path = `/api/messages/conversations/${pair.conversationId}/messages`
      post(path, { authorization: `Bearer ${sender.token}` }, { content }, window, t0)
    } else if (plan.mode === 'echo-db') {
      const payload: EchoDbSend = { from: sender.id, to: recipient.id, conversationId: pair.conversationId, content }
      post('/send', {}, payload, window, t0)
    } else sockets[from]?.emit('send', { to: recipient.id, conversationId: pair.conversationId, content })
    seq += 1
  }

  /** Sends at `plan.rate` per second for `seconds`, catching up on the schedule each tick. */
  const phase = async (seconds: number, window: Window | undefined) => {
    const start = performance.now()
    let sent = 0
    const total = Math.round(seconds * plan.rate)
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * plan.rate) + 1)
      while (sent < due) {
        sendOne(window)
        sent += 1
      }
      await sleep(2)
    }
    return { sent, seconds: (performance.now() - start) / 1000 }
  }

  await phase(plan.warmupSeconds, undefined)
  await sleep(500)
  const warmupSent = seq
  const warmupDelivered = warmupDelivery.length
  report({ kind: 'ready' })

  const windows: WindowOutcome[] = []
  const pooled: Window = { delivery: [], byServer: plan.socketUrls.map(() => []), http: [], httpFailed: 0, misdelivered: 0 }
  let measuredSent = 0
  let measuredSeconds = 0
  let busy = 0
  for (;;) {
    const command = await nextCommand()
    if (command.cmd === 'finish') break
    const window: Window = { delivery: [], byServer: plan.socketUrls.map(() => []), http: [], httpFailed: 0, misdelivered: 0 }
    report({ kind: 'measuring' })
    const eluStart = performance.eventLoopUtilization()
    const measured = await phase(plan.seconds, window)
    const loadElu = performance.eventLoopUtilization(eluStart).utilization
    report({ kind: 'measured' })
    // Stragglers: wait until everything measured is in, or the drain time is up.
    const drainUntil = performance.now() + plan.drainSeconds * 1000
    while (window.delivery.length < measured.sent && performance.now() < drainUntil) await sleep(50)
    // HTTP answers still out (the last sends) get a moment as well.
    while (plan.mode !== 'echo' && window.http.length + window.httpFailed < measured.sent && performance.now() < drainUntil) {
      await sleep(50)
    }
    const outcome: WindowOutcome = {
      sent: measured.sent,
      delivered: window.delivery.length,
      lost: measured.sent - window.delivery.length,
      misdelivered: window.misdelivered,
      delivery: summarize(window.delivery),
      deliveryByServer: window.byServer.map(summarize),
      ...(plan.mode !== 'echo'
        ? { http: { ...summarize(window.http), failed: window.httpFailed, ...(window.httpFirstError ? { firstError: window.httpFirstError } : {}) } }
        : {}),
      achievedRate: measured.sent / measured.seconds,
      loadElu,
    }
    windows.push(outcome)
    pooled.delivery.push(...window.delivery)
    window.byServer.forEach((values, i) => pooled.byServer[i]?.push(...values))
    pooled.http.push(...window.http)
    pooled.httpFailed += window.httpFailed
    pooled.httpFirstError ??= window.httpFirstError
    pooled.misdelivered += window.misdelivered
    measuredSent += measured.sent
    measuredSeconds += measured.seconds
    busy += loadElu * measured.seconds
    report({ kind: 'window', window: outcome })
  }

  for (const socket of sockets) socket?.disconnect()
  agent.destroy()
  return {
    connect: connectResult,
    sent: measuredSent,
    delivered: pooled.delivery.length,
    lost: measuredSent - pooled.delivery.length,
    misdelivered: pooled.misdelivered,
    delivery: summarize(pooled.delivery),
    deliveryByServer: pooled.byServer.map(summarize),
    ...(plan.mode !== 'echo'
      ? { http: { ...summarize(pooled.http), failed: pooled.httpFailed, ...(pooled.httpFirstError ? { firstError: pooled.httpFirstError } : {}) } }
      : {}),
    achievedRate: measuredSeconds > 0 ? measuredSent / measuredSeconds : 0,
    loadElu: measuredSeconds > 0 ? busy / measuredSeconds : 0,
    warmup: { sent: warmupSent, delivered: warmupDelivered, delivery: summarize(warmupDelivery) },
    windows,
  }
}

/** The plan comes first; then, once warm, one command at a time. */
const commands: LoadCommand[] = []
let waiting: ((command: LoadCommand) => void) | undefined
const nextCommand = () =>
  new Promise<LoadCommand>((resolve) => {
    const queued = commands.shift()
    if (queued) resolve(queued)
    else waiting = resolve
  })

process.once('message', (plan: LoadPlan) => {
  const report = (m: LoadMessage) => process.send?.(m)
  process.on('message', (command: LoadCommand) => {
    const take = waiting
    waiting = undefined
    if (take) take(command)
    else commands.push(command)
  })
  run(plan, report, nextCommand)
    .then((outcome) => report({ kind: 'done', outcome }))
    .catch((err: unknown) => report({ kind: 'error', error: err instanceof Error ? (err.stack ?? err.message) : String(err) }))
    .finally(() => process.disconnect?.())
})
