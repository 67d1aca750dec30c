import type { ServerToClientEvents } from '../../src/api/contract/socket-events'

/** Rooms: every socket of a member (for fan-out) and every socket of one session (to drop it on revocation). */
export const userRoom = (userId: string) => `user:${userId}`
export const sessionRoom = (sessionId: string) => `session:${sessionId}`

/** What the events need of socket.io's server: emitting to rooms (through the Redis adapter when there is one). */
export interface RoomEmitter {
  to(rooms: string | string[]): { emit<E extends keyof ServerToClientEvents>(event: E, ...args: Parameters<ServerToClientEvents[E]>): unknown }
}

/**
 * How services reach members' sockets without knowing socket.io: the services registry holds one of these from the
 * start, and attachRealtime (server/realtime/index.ts) plugs the socket server in. Emits go to per-member rooms, so
 * with REDIS_URL the adapter delivers them to sockets on every process. Without a socket server (tests that only
 * inject, the admin CLI) emitting does nothing: realtime is a hint, the 10 s refetch is the fallback.
 */
export class RealtimeEvents {
  private io: RoomEmitter | undefined

  /** `onSent` is told each event emitted and how many members it was addressed to (metrics count deliveries). */
  constructor(private readonly onSent?: (event: keyof ServerToClientEvents, members: number) => void) {}

  attach(io: RoomEmitter): void {
    this.io = io
  }

  detach(): void {
    this.io = undefined
  }

  toMembers<E extends keyof ServerToClientEvents>(
    userIds: readonly string[],
    event: E,
    ...payload: Parameters<ServerToClientEvents[E]>
  ): void {
    if (!this.io || userIds.length === 0) return
    // One emit per member: an emit naming a single room travels only to the processes holding that member's
    // sockets (server/realtime/redis-adapter.ts), where several rooms would go to every process. A member named
    // twice (a message to oneself) is told once.
    const members = new Set(userIds)
    for (const id of members) this.io.to(userRoom(id)).emit(event, ...payload)
    this.onSent?.(event, members.size)
  }
}
