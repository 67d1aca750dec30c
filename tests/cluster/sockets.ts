import { io, type Socket } from 'socket.io-client'
import { type MessageEvent, SOCKET_OPTIONS } from '../../src/api/contract/socket-events'

/**
 * A member's realtime connection through the load balancer, made as the SPA makes it (src/api/socket.ts: default
 * transports, long-polling then WebSocket, reconnecting 1 s growing to 5 s), plus a cookie jar for the balancer's
 * affinity cookie. It records what arrived and when it was connected, to tell a lost event from one sent while the
 * socket was reconnecting after a restart.
 */
export class MemberSocket {
  readonly socket: Socket
  /** Message id -> when it arrived. */
  readonly received = new Map<string, number>()
  /** [connected at, disconnected at (Infinity while connected)] */
  readonly connectedSpans: [number, number][] = []
  connects = 0

  constructor(base: string, token: string) {
    this.socket = io(base, { ...SOCKET_OPTIONS, auth: { token }, withCredentials: true, forceNew: true })
    this.socket.on('connect', () => {
      this.connects += 1
      this.connectedSpans.push([Date.now(), Infinity])
    })
    this.socket.on('disconnect', (reason) => {
      const span = this.connectedSpans.at(-1)
      if (span) span[1] = Date.now()
      // A process that shuts down drops its sockets on purpose, which socket.io does not retry by itself; the SPA's
      // realtime actor connects again (src/machines/realtime/realtime.actor.ts), and so does this.
      if (reason === 'io server disconnect') this.socket.connect()
    })
    this.socket.on('new_message', (event: MessageEvent) => this.received.set(event.message.id, Date.now()))
  }

  async connected(timeoutMs = 10_000): Promise<void> {
    if (this.socket.connected) return
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`socket not connected within ${timeoutMs} ms`)), timeoutMs)
      this.socket.once('connect', () => {
        clearTimeout(timer)
        resolve()
      })
    })
  }

  /** Whether the socket stayed connected (one span) from `from` to `to`. */
  connectedThroughout(from: number, to: number): boolean {
    return this.connectedSpans.some(([start, end]) => start <= from && end >= to)
  }

  close(): void {
    this.socket.disconnect()
  }
}

export interface Delivery {
  recipient: { username: string }
  id: string
  sentAt: number
  ackAt: number
}

/**
 * Which sent messages a recipient's socket should have had and did not: one that stayed connected from the send
 * until `windowMs` after the answer must have it; one that reconnected meanwhile may have missed it (realtime is a
 * hint: the SPA refetches), and is only counted.
 */
export function missedDeliveries(
  sent: readonly Delivery[],
  sockets: ReadonlyMap<string, MemberSocket>,
  windowMs: number,
): { lost: Delivery[]; whileReconnecting: number } {
  const lost: Delivery[] = []
  let whileReconnecting = 0
  for (const message of sent) {
    const socket = sockets.get(message.recipient.username)
    if (!socket || socket.received.has(message.id)) continue
    if (socket.connectedThroughout(message.sentAt, message.ackAt + windowMs)) lost.push(message)
    else whileReconnecting += 1
  }
  return { lost, whileReconnecting }
}
