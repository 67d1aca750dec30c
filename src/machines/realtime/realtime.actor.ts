import { fromCallback, type AnyActorRef, type EventObject } from 'xstate'
import {
  SERVER_EVENTS,
  SOCKET_REFUSALS,
  type NotificationEvent,
  type ServerEventPayload,
  type ConversationEventName,
} from '../../api/contract/socket-events'
import { afterFirstScreen } from '../lib/first-screen'

// The realtime channel as an actor (docs/product.md, "Realtime"). The app actor runs it while the session is
// authenticated, so it connects with the session's token on sign-in and disconnects on logout or any 401 (stopping
// the actor closes the socket). socket.io retries a dropped connection itself, 1 s growing to 5 s between tries.
// Server events name what changed (a conversation; the message they carry is ciphertext); each becomes an event for
// the actor that owns that data, found by its systemId, which refetches. The `notification` event carries the member's
// unread notification count, which goes to the notifications actor (systemId 'notifications') for the badge. A token
// the server refuses is a 401: the session ends.

/** What the actor needs from a socket: socket.io-client's shape, narrowed so tests can pass a fake. */
export interface RealtimeSocket {
  connect(): unknown
  disconnect(): unknown
  emit(event: 'authenticate', userId: string): unknown
  on(event: 'connect', listener: () => void): unknown
  on(event: 'disconnect', listener: (reason: string) => void): unknown
  on(event: 'connect_error', listener: (error: Error) => void): unknown
  on<E extends ConversationEventName>(event: E, listener: (payload: ServerEventPayload) => void): unknown
  on(event: 'notification', listener: (payload: NotificationEvent) => void): unknown
  removeAllListeners(): unknown
}

export interface RealtimeInput {
  token: string
  userId: string
}

/** What the realtime actor tells its parent (the app actor), for the inspector and the connection state. */
export type RealtimeStatusEvent =
  | { type: 'realtime.connected' }
  | { type: 'realtime.disconnected'; reason: string }
  | { type: 'realtime.refused'; reason: string }

/** Which actor hears each server event, and as what. */
export const REALTIME_ROUTES: Readonly<Record<ConversationEventName, { systemId: string; event: string }>> = {
  new_message: { systemId: 'conversations', event: 'conversation.changed' },
  message_edited: { systemId: 'conversations', event: 'conversation.changed' },
  message_deleted: { systemId: 'conversations', event: 'conversation.changed' },
  // Read receipts: the list and the open conversation refetch, so the sender's double ticks (and the reader's
  // cleared badge in another tab) appear without waiting for the 10 s poll.
  messages_read: { systemId: 'conversations', event: 'conversation.changed' },
}

/** Only the conversation's id is used; a payload without a sane one (a hostile or buggy server) is dropped. */
function conversationIdOf(payload: unknown): string | null {
  const id = (payload as { conversationId?: unknown } | null | undefined)?.conversationId
  return typeof id === 'string' && id.length > 0 && id.length <= 100 ? id : null
}

/** The notifications actor hears the member's unread count as this event. */
export const NOTIFICATION_ROUTE = { systemId: 'notifications', event: 'notifications.count' } as const

/** Only a sane count is passed on (a non-negative integer); anything else (a hostile or buggy server) is dropped. */
function unreadCountOf(payload: unknown): number | null {
  const count = (payload as { unreadCount?: unknown } | null | undefined)?.unreadCount
  return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : null
}

export function realtimeLogic(open: (token: string) => RealtimeSocket) {
  return fromCallback<EventObject, RealtimeInput>(({ input, sendBack, system }) => {
    const socket = open(input.token)
    const deliver = (systemId: string, event: { type: string } & Record<string, unknown>) => {
      const target = system.get(systemId) as AnyActorRef | undefined
      target?.send(event)
    }

    socket.on('connect', () => {
      socket.emit('authenticate', input.userId)
      sendBack({ type: 'realtime.connected' } satisfies RealtimeStatusEvent)
    })
    socket.on('disconnect', (reason) => {
      sendBack({ type: 'realtime.disconnected', reason } satisfies RealtimeStatusEvent)
      // The server dropped this socket on purpose (its session was revoked: logout elsewhere, password change), and
      // socket.io will not retry that by itself. Ask again: the server's refusal then ends the session here too.
      if (reason === 'io server disconnect') socket.connect()
    })
    socket.on('connect_error', (error) => {
      if (!SOCKET_REFUSALS.includes(error.message)) return // socket.io retries by itself
      sendBack({ type: 'realtime.refused', reason: error.message } satisfies RealtimeStatusEvent)
      deliver('session', { type: 'session.expired' })
    })
    for (const name of SERVER_EVENTS) {
      socket.on(name, (payload) => {
        const conversation = conversationIdOf(payload)
        if (conversation === null) return
        const route = REALTIME_ROUTES[name]
        deliver(route.systemId, { type: route.event, conversation, change: name })
      })
    }
    // Not a conversation event: the member's unread notification count, for the badge (docs/product.md, "Realtime").
    socket.on('notification', (payload) => {
      const unreadCount = unreadCountOf(payload)
      if (unreadCount === null) return
      deliver(NOTIFICATION_ROUTE.systemId, { type: NOTIFICATION_ROUTE.event, unreadCount })
    })
    socket.connect()

    return () => {
      socket.removeAllListeners()
      socket.disconnect()
    }
  })
}

/**
 * A socket whose implementation is still loading: calls made before it arrives are replayed on it in order, and a
 * `disconnect()` before then means it is never opened. Lets socket.io-client (about 12 KB of gzip JS) load after the
 * first screen instead of with it.
 */
export function deferredSocket(load: () => Promise<RealtimeSocket>): RealtimeSocket {
  let socket: RealtimeSocket | null = null
  let closed = false
  const pending: Array<(s: RealtimeSocket) => unknown> = []
  const call = (f: (s: RealtimeSocket) => unknown) => {
    if (socket) f(socket)
    else if (!closed) pending.push(f)
  }
  load().then(
    (loaded) => {
      if (closed) return
      socket = loaded
      for (const f of pending.splice(0)) f(loaded)
    },
    (error: unknown) => console.error('The realtime connection could not load', error),
  )
  return {
    connect: () => call((s) => s.connect()),
    disconnect: () => {
      if (socket) return socket.disconnect()
      closed = true
      pending.length = 0
      return undefined
    },
    emit: (event, userId) => call((s) => s.emit(event, userId)),
    on: ((event: string, listener: (...args: never[]) => void) =>
      call((s) => (s.on as (e: string, l: (...args: never[]) => void) => unknown)(event, listener))) as RealtimeSocket['on'],
    removeAllListeners: () => call((s) => s.removeAllListeners()),
  }
}

/**
 * The app's realtime actor, on socket.io, whose library (about 12 KB of gzip JS) is its own chunk, fetched once the
 * first screen is up (lib/first-screen.ts; at most a few seconds after the session starts on any other first screen)
 * so it never competes with the first load. Nothing is lost meanwhile: the conversation list and the
 * notification count refetch once when the socket connects, for whatever was sent before (an earlier attempt without
 * that catch-up in the conversation list missed a reply that came before the socket was up).
 */
export const realtimeActor = realtimeLogic((token) =>
  deferredSocket(
    () =>
      new Promise<void>((resolve) => afterFirstScreen(resolve))
        .then(() => import('../../api/socket'))
        .then((m) => m.createSocket(token)),
  ),
)
