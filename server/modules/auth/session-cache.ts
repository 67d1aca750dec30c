import type { Invalidation } from '../../cache/invalidation'
import type { InvalidationTarget } from '../../cache/invalidations'
import { Lru, type LruStats } from '../../cache/lru'
import { Versions } from '../../cache/versions'
import type { UserRow } from '../../db/schema'

/** A resolved session as cached: the member's row and when the session was last marked seen. */
export interface CachedSession {
  sessionId: string
  user: UserRow
  lastSeenAt: Date
  /** The absolute end (ms since the epoch) and the idle limit: expiry is decided on this entry, without a query. */
  expiresAt: number
  idleMs: number
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
  /** Token hashes and members share one record of changes: a member's change refuses fills of their sessions. */
  private readonly versions = new Versions<string>()
  /** member id -> their cached token hashes, so a member's change drops theirs without scanning every session. */
  private readonly byMember = new Map<string, Set<string>>()

  constructor(readonly enabled = true) {
    this.lru = new Lru({
      maxEntries: enabled ? SESSION_CACHE_MAX : 0,
      ttlMs: 2 * SESSION_CACHE_TTL_MS,
      refreshMs: SESSION_CACHE_TTL_MS,
      versions: this.versions,
      onRemove: (tokenHash, s) => {
        const hashes = this.byMember.get(s.user.id)
        hashes?.delete(tokenHash)
        if (hashes?.size === 0) this.byMember.delete(s.user.id)
      },
    })
  }

  get generation(): number {
    return this.lru.generation
  }

  get stats(): LruStats {
    return this.lru.stats
  }

  /** Past SESSION_CACHE_TTL_MS an entry is `stale`: served while the caller reloads it in the background. */
  get(tokenHash: string): { value: CachedSession; stale: boolean } | undefined {
    return this.lru.lookup(tokenHash)
  }

  setIfFresh(tokenHash: string, session: CachedSession, generation: number): void {
    if (!this.versions.unchangedSince(memberKey(session.user.id), generation)) return
    if (!this.lru.setIfFresh(tokenHash, session, generation) || !this.lru.has(tokenHash)) return
    const hashes = this.byMember.get(session.user.id)
    if (hashes) hashes.add(tokenHash)
    else this.byMember.set(session.user.id, new Set([tokenHash]))
  }

  apply(message: Invalidation): void {
    if (message.kind === 'sessions-ended') this.dropSessions(message.sessionIds)
    else if (message.kind === 'member-changed' || message.kind === 'follows-changed') this.dropMember(message.userId)
    else if (message.kind === 'everything-changed') this.lru.clear()
  }

  drop(tokenHash: string): void {
    this.lru.invalidate(tokenHash)
  }

  dropSessions(sessionIds: readonly string[]): void {
    const ended = new Set(sessionIds)
    this.lru.invalidateWhere((_hash, s) => ended.has(s.sessionId))
  }

  dropMember(userId: string): void {
    this.versions.changed(memberKey(userId))
    for (const tokenHash of [...(this.byMember.get(userId) ?? [])]) this.lru.invalidate(tokenHash)
  }
}

/** Members' keys in the shared record, apart from token hashes (hex). */
const memberKey = (userId: string) => `member:${userId}`
