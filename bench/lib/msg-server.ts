import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { Server } from 'socket.io'
import { buildApp } from '../../server/app'
import { attachRealtime } from '../../server/realtime'
import { userRoom } from '../../server/realtime/events'
import type { ServerStart, ServerAnswer, ServerCommand, ServerUsage, EchoSend } from './msg-protocol'

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
 *
 * Answers `usage` with its CPU time and event-loop utilisation so the bench can charge CPU per message.
 */

let close: () => Promise<void> = async () => {}

async function startWren(start: Extract<ServerStart, { mode: 'wren' }>): Promise<number> {
  const app = await buildApp({
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
  await app.listen({ host: '127.0.0.1', port: 0 })
  close = () => app.close()
  return (app.server.address() as AddressInfo).port
}

async function startEcho(): Promise<number> {
  const http = createServer()
  const io = new Server(http, { serveClient: false })
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
      const message = {
        id: randomUUID(),
        conversationId: payload.conversationId,
        senderId: from,
        content: payload.content,
        read: false,
        edited: false,
        deleted: false,
        createdAt: new Date().toISOString(),
        media: [],
      }
      io.to([userRoom(from), userRoom(payload.to)]).emit('new_message', { conversationId: payload.conversationId, message })
    })
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  close = async () => {
    io.local.disconnectSockets(true)
    await new Promise<void>((resolve) => io.close(() => resolve()))
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
      const port = command.start.mode === 'wren' ? await startWren(command.start) : await startEcho()
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
