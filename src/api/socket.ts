import { io, type Socket } from 'socket.io-client'
import { SOCKET_OPTIONS, type ClientToServerEvents, type ServerToClientEvents } from './contract/socket-events'

// The socket factory. The realtime actor (src/machines/realtime) owns the socket's life: it connects when the
// session is authenticated and disconnects on logout or 401.

export type WrenSocket = Socket<ServerToClientEvents, ClientToServerEvents>

/**
 * A socket to the server root, authenticated with the bearer token (the server checks `handshake.auth.token`).
 * Created disconnected: the owner calls `connect()` and must `disconnect()` on logout.
 */
export function createSocket(token: string, url?: string): WrenSocket {
  const options = { ...SOCKET_OPTIONS, auth: { token }, autoConnect: false }
  return url === undefined ? io(options) : io(url, options)
}
