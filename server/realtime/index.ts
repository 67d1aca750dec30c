import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { createClient } from 'redis'
import { Server, type Socket } from 'socket.io'
import type { AuthenticateAck, ServerToClientEvents } from '../../src/api/contract/socket-events'
import { AUTH_REQUIRED, SESSION_ENDED } from '../http/authenticate'
import type { Authenticated } from '../lib/authenticated'
import { sessionRoom, userRoom } from './events'
import { crossProcessAdapter } from './redis-adapter'

export { sessionRoom, userRoom }

export type { AuthenticateAck }

interface ClientToServerEvents {
  /**
   * `{ token }` re-authenticates the socket (after a new login). The SPA also sends its user id; that is only
   * compared with the socket's own member, never trusted.
   */
  authenticate: (payload: unknown, ack?: (result: AuthenticateAck) => void) => void
}

interface SocketData {
  userId: string
  sessionId: string
}

/** What outage reporting uses of a client (its generic types differ between a client and its duplicate). */
interface RedisEvents {
  on(event: 'ready', listener: () => void): unknown
  on(event: 'error', listener: (err: Error) => void): unknown
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>

export interface RealtimeOptions {
  /** With a Redis URL, emits reach sockets connected to any server process sharing it. */
  redisUrl?: string
}

function tokenOf(value: unknown): string | undefined {
  const token = (value as { token?: unknown } | null | undefined)?.token
  return typeof token === 'string' ? token : undefined
}

/** Resolves once this process hears the rooms' events from the other processes (see redis-adapter.ts). */
type Subscribed = (rooms: readonly string[]) => Promise<void>

async function enterRooms(socket: RealtimeSocket, auth: Authenticated, subscribed: Subscribed): Promise<void> {
  if (socket.data.userId) await socket.leave(userRoom(socket.data.userId))
  if (socket.data.sessionId) await socket.leave(sessionRoom(socket.data.sessionId))
  socket.data.userId = auth.user.id
  socket.data.sessionId = auth.sessionId
  const rooms = [userRoom(auth.user.id), sessionRoom(auth.sessionId)]
  await socket.join(rooms)
  await subscribed(rooms)
}

/**
 * Without an 'error' listener a lost Redis connection would be an uncaught 'error' event. The client reconnects by
 * itself and says 'error' at every failed attempt, so one line says Redis went and one says it is back. While it
 * is gone the adapter's publishes wait in the client's queue (they are never awaited by a request), and members'
 * sockets on other processes fall back on the app's periodic refetch.
 */
function reportOutages(client: RedisEvents, log: FastifyBaseLogger, what: string): void {
  let down = false
  client.on('error', (err: Error) => {
    if (down) return
    down = true
    log.warn({ err }, `${what}: Redis unreachable; events reach only this process's sockets until it is back`)
  })
  client.on('ready', () => {
    if (down) log.info(`${what}: Redis reachable again`)
    down = false
  })
}

/**
 * socket.io on the app's own HTTP server (one port for API, web app and realtime). Call before `listen()`/`ready()`:
 * it adds the app's close hooks. A socket needs a valid bearer token in `handshake.auth.token`; it is dropped when
 * that session is revoked (logout, password change).
 */
export async function attachRealtime(app: FastifyInstance, options: RealtimeOptions = {}): Promise<RealtimeServer> {
  const { sessions } = app.services
  const io: RealtimeServer = new Server(app.server, { serveClient: false })

  let closeRedis = async () => {}
  let subscribed: Subscribed = () => Promise.resolve()
  if (options.redisUrl) {
    const pub = createClient({ url: options.redisUrl })
    const sub = pub.duplicate()
    reportOutages(pub, app.log, 'realtime events (publish)')
    reportOutages(sub, app.log, 'realtime events (subscribe)')
    await Promise.all([pub.connect(), sub.connect()])
    const adapter = await crossProcessAdapter(pub, sub, app.log)
    io.adapter(adapter.factory)
    subscribed = adapter.subscribed
    closeRedis = async () => {
      await Promise.allSettled([pub.close(), sub.close()])
    }
  }

  io.use((socket, next) => {
    const token = tokenOf(socket.handshake.auth)
    if (!token) return next(new Error(AUTH_REQUIRED))
    sessions
      .resolve(token)
      .then(async (auth) => {
        if (!auth) return next(new Error(SESSION_ENDED))
        await enterRooms(socket, auth, subscribed)
        next()
      })
      .catch((err: unknown) => {
        app.log.error({ err }, 'realtime authentication failed')
        next(new Error('Internal server error'))
      })
  })

  io.on('connection', (socket) => {
    socket.on('authenticate', (payload, ack) => {
      const reply = (result: AuthenticateAck) => (typeof ack === 'function' ? ack(result) : undefined)
      const token = tokenOf(payload)
      if (!token) {
        // The SPA's "authenticate(userId)": the rooms already follow the token; just confirm or refuse the claim.
        if (payload === undefined || payload === socket.data.userId) reply({ ok: true, userId: socket.data.userId })
        else reply({ ok: false, error: 'That is not the signed-in member' })
        return
      }
      sessions
        .resolve(token)
        .then(async (auth) => {
          if (!auth) {
            reply({ ok: false, error: SESSION_ENDED })
            socket.disconnect(true)
            return
          }
          await enterRooms(socket, auth, subscribed)
          reply({ ok: true, userId: auth.user.id })
        })
        .catch((err: unknown) => {
          app.log.error({ err }, 'realtime re-authentication failed')
          reply({ ok: false, error: 'Internal server error' })
        })
    })
  })

  const stopWatching = sessions.onRevoked((ids) => io.in(ids.map(sessionRoom)).disconnectSockets(true))
  // Services emit message events through the registry's RealtimeEvents (server/realtime/events.ts).
  app.services.realtime.attach(io)
  if (app.metrics) app.metrics.sources.sockets = () => io.of('/').sockets.size

  // Open websockets would hold the HTTP server open: close them before Fastify waits for its connections.
  app.addHook('preClose', async () => {
    stopWatching()
    io.local.disconnectSockets(true)
    io.engine.close()
  })
  // Requests still running when closing begins finish before onClose, and the events they emit (a message sent, a
  // notification) must still reach members' sockets on the other processes through the adapter.
  app.addHook('onClose', async () => {
    app.services.realtime.detach()
    await closeRedis()
  })
  return io
}
