import type { components } from './schema'

// The realtime channel's events, shared by the server (server/realtime) and the SPA's realtime actor
// (src/machines/realtime). Each names the conversation that changed; the message events carry the message as the API
// answers it: ciphertext only (docs/security.md), so no message text ever travels over the socket either.

export type DirectMessage = components['schemas']['DirectMessage']

/** A message that was sent, edited or deleted (then with empty content), and its conversation. */
export interface MessageEvent {
  readonly conversationId: string
  readonly message: DirectMessage
}

/**
 * A member read a conversation: the incoming messages unread until `readAt` are read now (the other participant's
 * single ticks become double ticks; the reader's other tabs clear their unread badge). Sent only when the read
 * marked something.
 */
export interface MessagesReadEvent {
  readonly conversationId: string
  readonly readerId: string
  /** ISO 8601, the server's time of the read. */
  readonly readAt: string
}

/** Something happened that the member is notified of (or an item was read): their unread count now. */
export interface NotificationEvent {
  readonly unreadCount: number
}

export interface ServerToClientEvents {
  new_message: (event: MessageEvent) => void
  message_deleted: (event: MessageEvent) => void
  message_edited: (event: MessageEvent) => void
  messages_read: (event: MessagesReadEvent) => void
  notification: (event: NotificationEvent) => void
}

/** The events about a conversation, by name, for code that listens to all of them. */
export const SERVER_EVENTS = [
  'new_message',
  'message_deleted',
  'message_edited',
  'messages_read',
] as const satisfies ReadonlyArray<keyof ServerToClientEvents>

export type ConversationEventName = (typeof SERVER_EVENTS)[number]

/** What a conversation event carries: each names the conversation that changed. */
export type ServerEventPayload = Parameters<ServerToClientEvents[ConversationEventName]>[0]

export type AuthenticateAck = { ok: true; userId: string } | { ok: false; error: string }

export interface ClientToServerEvents {
  /**
   * The SPA sends its user id once connected (the server only compares it with the socket's own member), or
   * `{ token }` to re-authenticate the socket after a new login.
   */
  authenticate: (payload: string | { token: string }, ack?: (result: AuthenticateAck) => void) => void
}

/**
 * The reasons the server gives when it refuses a socket's token (its 401 texts). The client treats them as a 401:
 * the session is over. Any other connect error (the server restarting, the network) is retried.
 */
export const SOCKET_REFUSALS: ReadonlyArray<string> = ['Authentication required', 'Session expired or revoked']

/** Reconnection per docs/product.md "Realtime": 1 s growing to 5 s between tries, 20 s connect timeout. */
export const SOCKET_OPTIONS = {
  reconnectionDelay: 1_000,
  reconnectionDelayMax: 5_000,
  timeout: 20_000,
} as const
