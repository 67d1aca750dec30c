import { io, type Socket } from 'socket.io-client'

// Realtime channel (spec section 4 "Realtime"): nothing connects it yet; messaging will. The factory fixes the
// options the spec names so every caller gets the same behaviour.

/** Each realtime event names the conversation whose data should be refetched. */
export interface ConversationEvent {
  readonly conversation: string
}

export interface ServerToClientEvents {
  new_message: (event: ConversationEvent) => void
  message_deleted: (event: ConversationEvent) => void
  message_edited: (event: ConversationEvent) => void
}

export interface ClientToServerEvents {
  authenticate: (userId: string) => void
}

export type WrenSocket = Socket<ServerToClientEvents, ClientToServerEvents>

export const SOCKET_OPTIONS = {
  reconnectionDelay: 1_000,
  reconnectionDelayMax: 5_000,
  timeout: 20_000,
} as const

/**
 * A socket to the server root, authenticated with the bearer token (the server checks `handshake.auth.token`).
 * Created disconnected: the owner calls `connect()` and must `disconnect()` on logout.
 */
export function createSocket(token: string, url?: string): WrenSocket {
  const options = { ...SOCKET_OPTIONS, auth: { token }, autoConnect: false }
  return url === undefined ? io(options) : io(url, options)
}
