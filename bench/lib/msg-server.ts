import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { appendFileSync } from 'node:fs'
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks'
import pg from 'pg'
import { openDatabase, POOL_MAX } from '../../server/db/client'
import { Server } from 'socket.io'
import { buildApp } from '../../server/app'
import { attachRealtime } from '../../server/realtime'
import { userRoom } from '../../server/realtime/events'
import type { EchoDbSend, EchoSend, ServerAnswer, ServerCommand, ServerStart, ServerUsage } from './msg-protocol'

/**
 * One server process of the messaging bench, started by msg-processes.ts and driven over IPC.
 *
 * - `wren`: the real app as server/main.ts runs it (buildApp + attachRealtime, with REDIS_URL when given), rate
 *   limits off (config `rateLimits: false`: every limiter of the app is off, so a per-member send limit added
 *   later stays out of the way), logger off.
 * - `echo`: the baseline, a plain socket.io server with no database and no auth: a socket names its member in
 *   `handshake.auth.userId` and joins that member's room; `send` is forwarded as `new_message` to the sender's and
 *   the recipient's rooms, the same two-room emit the app makes (MessageService.send), with a message of the same
 *   shape.
 * - `echo-db`: the echo plus what any durable HTTP send pays: the message comes as an HTTP POST (keep-alive, as the
 *   app's), one INSERT of the same row into PostgreSQL (autocommit: one commit, the app's pool size), then the same
 *   emit and a 201 with the message. No auth, no rules, no conversation rows: the floor of an HTTP send that is
 *   written before it is delivered.
 *
 * Answers `usage` with its CPU time and event-loop utilisation so the bench can charge CPU per message.
 */

let close: () => Promise<void> = async () => {}

// Diagnostics (BENCH_MSG_TRACE=<file>): event-loop stalls, GC pauses, slow statements and slow requests (with the pool's
// state), and the statements sent each second by their first words, one JSON line each with the wall clock, so a
// latency tail can be matched with what the process was doing at that moment. With it, BENCH_MSG_SYNC_OFF=1 runs the
// app's connections with synchronous_commit off: an experiment on what the commits' WAL flushes cost, never a result.
const TRACE = process.env.BENCH_MSG_TRACE
const trace = (entry: Record<string, unknown>) => {
  if (TRACE) appendFileSync(TRACE, JSON.stringify({ t: Date.now(), pid: process.pid, ...entry }) + '\n')
}
/** Counts the statements sent, by their first words, each second (diagnostics only). */
function traceStatements(database: Awaited<ReturnType<typeof openDatabase>>) {
  const counts = new Map<string, number>()
  const timing = database.timing
  const original = timing.timePgClient.bind(timing)
  timing.timePgClient = (client) => {
    if (process.env.BENCH_MSG_SYNC_OFF) void client.query('set synchronous_commit = off')
    const query = client.query.bind(client) as (...args: unknown[]) => unknown
    ;(client as unknown as { query: typeof query }).query = (...args: unknown[]) => {
      const first = args[0] as string | { text?: string; name?: string }
      const text = (typeof first === 'string' ? first : (first.name ?? first.text ?? '?')).replace(/\s+/g, ' ').slice(0, 60)
      counts.set(text, (counts.get(text) ?? 0) + 1)
      return query(...args)
    }
    original(client)
  }
  setInterval(() => {
    if (counts.size > 0) trace({ k: 'counts', counts: Object.fromEntries(counts) })
    counts.clear()
  }, 1000).unref()
}

if (TRACE) {
  const delay = monitorEventLoopDelay({ resolution: 5 })
  delay.enable()
  setInterval(() => {
    const maxMs = delay.max / 1e6
    if (maxMs >= 20) trace({ k: 'loop', maxMs: +maxMs.toFixed(1), p99Ms: +(delay.percentile(99) / 1e6).toFixed(1) })
    delay.reset()
  }, 1000).unref()
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.duration >= 5) trace({ k: 'gc', ms: +e.duration.toFixed(1), kind: (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind })
  }).observe({ entryTypes: ['gc'] })
}

async function startWren(start: Extract<ServerStart, { mode: 'wren' }>): Promise<number> {
  const database = await openDatabase({ url: start.databaseUrl, dataDir: start.dataDir })
  if (TRACE) traceStatements(database)
  const app = await buildApp({
    database,
    config: {
      databaseUrl: start.databaseUrl,
      dataDir: start.dataDir,
      rateLimits: false,
      logLevel: 'silent',
      ...(start.redisUrl ? { redisUrl: start.redisUrl } : {}),
    },
    logger: false,
  })
  await attachRealtime(app, start.redisUrl ? { redisUrl: start.redisUrl } : {})
  if (TRACE) {
    database.timing.observe((s) => {
      if (s * 1000 >= 10) trace({ k: 'stmt', ms: +(s * 1000).toFixed(1), pool: database.poolStats?.() })
    })
    app.addHook('onResponse', async (req, reply) => {
      if (reply.elapsedTime >= 15) trace({ k: 'req', ms: +reply.elapsedTime.toFixed(1), url: req.url, pool: database.poolStats?.() })
    })
  }
  await app.listen({ host: '127.0.0.1', port: 0 })
  close = async () => {
    await app.close()
    await database.close()
  }
  return (app.server.address() as AddressInfo).port
}

/**
 * The echo-db baseline's one statement: the message row a send writes (same columns and sizes as `messages`), in its
 * own table so nothing of the app (triggers, rules, conversation rows) runs. Autocommit with the server's
 * synchronous_commit: a durable commit, as the app's send.
 */
const ECHO_TABLE = `create table if not exists bench_echo_messages (
  id uuid primary key, conversation_id uuid not null, sender_id uuid not null, content text not null,
  created_at timestamptz not null default now())`

function echoDbHandler(pool: pg.Pool, io: () => Server) {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url !== '/send') {
      res.writeHead(404).end()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const send = JSON.parse(Buffer.concat(chunks).toString()) as EchoDbSend
      pool
        .query<{ id: string; created_at: Date }>(
          'insert into bench_echo_messages (id, conversation_id, sender_id, content) values ($1, $2, $3, $4) returning id, created_at',
          [randomUUID(), send.conversationId, send.from, send.content],
        )
        .then(({ rows: [row] }) => {
          if (!row) throw new Error('no row')
          const message = echoMessage(send, row.id, row.created_at.toISOString())
          io().to([userRoom(send.from), userRoom(send.to)]).emit('new_message', { conversationId: send.conversationId, message })
          res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ message }))
        })
        .catch((err: unknown) => res.writeHead(500).end(String(err)))
    })
  }
}

const echoMessage = (send: EchoSend & { from: string }, id: string, createdAt: string) => ({
  id,
  conversationId: send.conversationId,
  senderId: send.from,
  content: send.content,
  read: false,
  edited: false,
  deleted: false,
  createdAt,
  media: [],
})

/** `databaseUrl`: the echo-db baseline (HTTP POST /send, one INSERT, then the same emit); without it the plain echo. */
async function startEcho(databaseUrl?: string): Promise<number> {
  let pool: pg.Pool | undefined
  if (databaseUrl) {
    // The app's pool size and session settings (server/db/client.ts).
    pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_MAX, options: '-c jit=off' })
    await pool.query(ECHO_TABLE)
  }
  const http = pool ? createServer(echoDbHandler(pool, (): Server => io)) : createServer()
  const io: Server = new Server(http, { serveClient: false })
  io.use((socket, next) => {
    const userId = (socket.handshake.auth as { userId?: unknown }).userId
    if (typeof userId !== 'string') return next(new Error('userId required'))
    socket.data.userId = userId
    void socket.join(userRoom(userId))
    next()
  })
  io.on('connection', (socket) => {
    socket.on('send', (payload: EchoSend) => {
      const from = socket.data.userId as string
      const message = echoMessage({ ...payload, from }, randomUUID(), new Date().toISOString())
      io.to([userRoom(from), userRoom(payload.to)]).emit('new_message', { conversationId: payload.conversationId, message })
    })
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  close = async () => {
    io.local.disconnectSockets(true)
    await new Promise<void>((resolve) => io.close(() => resolve()))
    await pool?.end()
  }
  return (http.address() as AddressInfo).port
}

function usage(): ServerUsage {
  const cpu = process.cpuUsage()
  return { cpuMicros: cpu.user + cpu.system, elu: performance.eventLoopUtilization(), rssBytes: process.memoryUsage().rss }
}

const answer = (a: ServerAnswer) => process.send?.(a)

process.on('message', (command: ServerCommand) => {
  const run = async () => {
    if (command.cmd === 'start') {
      const { start } = command
      const port =
        start.mode === 'wren' ? await startWren(start) : await startEcho(start.mode === 'echo-db' ? start.databaseUrl : undefined)
      answer({ cmd: 'started', port })
    } else if (command.cmd === 'usage') {
      answer({ cmd: 'usage', usage: usage() })
    } else {
      await close()
      answer({ cmd: 'closed' })
      process.disconnect?.()
    }
  }
  run().catch((err: unknown) => {
    answer({ cmd: 'error', error: err instanceof Error ? (err.stack ?? err.message) : String(err) })
  })
})
