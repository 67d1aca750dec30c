import type { Invalidation } from '../../cache/invalidation'
import type { InvalidationTarget } from '../../cache/invalidations'
import { Lru } from '../../cache/lru'
import type { UserRow } from '../../db/schema'

/** A resolved session as cached: the member's row and when the session was last marked seen. */
export interface CachedSession {
  sessionId: string
  user: UserRow
  lastSeenAt: Date
}

// Short (an entry is reloaded in the background once this old, and dropped at twice it): the safety net if an invalidation from another process is lost (and the bound on staleness of a member's
// row changed by a process that cannot publish, e.g. the admin CLI without REDIS_URL).
export const SESSION_CACHE_TTL_MS = 30_000
export const SESSION_CACHE_MAX = 10_000

/**
 * token hash -> session and member, so an authenticated request does not cost a database round trip. Every write
 * that ends a session or changes a member's row invalidates here (locally at once, and on the bus for the other
 * processes: server/cache/invalidation.ts).
 */
export class SessionCache implements InvalidationTarget {
  private readonly lru: Lru<string, CachedSession>

  constructor(readonly enabled = true) {
    this.lru = new Lru({
      maxEntries: enabled ? SESSION_CACHE_MAX : 0,
      ttlMs: 2 * SESSION_CACHE_TTL_MS,
      refreshMs: SESSION_CACHE_TTL_MS,
    })
  }

  get generation(): number {
    return this.lru.generation
  }

  /** Past SESSION_CACHE_TTL_MS an entry is `stale`: served while the caller reloads it in the background. */
  get(tokenHash: string): { value: CachedSession; stale: boolean } | undefined {
    return this.lru.lookup(tokenHash)
  }

  setIfFresh(tokenHash: string, session: CachedSession, generation: number): void {
    this.lru.setIfFresh(tokenHash, session, generation)
  }

  apply(message: Invalidation): void {
    if (message.kind === 'sessions-ended') this.dropSessions(message.sessionIds)
    else if (message.kind === 'member-changed' || message.kind === 'follows-changed') this.dropMember(message.userId)
  }

  drop(tokenHash: string): void {
    this.lru.invalidate(tokenHash)
  }

  dropSessions(sessionIds: readonly string[]): void {
    const ended = new Set(sessionIds)
    this.lru.invalidateWhere((_hash, s) => ended.has(s.sessionId))
  }

  dropMember(userId: string): void {
    this.lru.invalidateWhere((_hash, s) => s.user.id === userId)
  }
}
