import type { Database } from '../../db/client'
import type { UserRow } from '../../db/schema'
import type { Invalidations } from '../../cache/invalidations'
import type { LruStats } from '../../cache/lru'
import { SingleFlight } from '../../cache/single-flight'
import { deleteSession, findSessionWithUser, insertSession, touchSession } from './queries'
import type { CachedSession, SessionCache } from './session-cache'
import { hashToken, looksLikeToken, newToken } from './tokens'

/** The member behind a request's bearer token. */
export interface Authenticated {
  user: UserRow
  sessionId: string
}

/** How a session begins: what the sign-in request says about the device, kept with the session. */
export interface SessionStart {
  userAgent?: string
}

type RevokedListener = (sessionIds: readonly string[]) => void

// last_seen_at is for "active sessions" lists, not security: minute precision saves a write per request.
const TOUCH_INTERVAL_MS = 60_000

/**
 * Bearer sessions: create, resolve, revoke. Shared by the HTTP auth hook and the realtime socket so both accept the
 * same tokens, and revocations are announced so open sockets of a revoked session are dropped.
 */
export class SessionStore {
  private readonly revokedListeners = new Set<RevokedListener>()
  /** Concurrent first requests of one token share one lookup. */
  private readonly loads: SingleFlight<string, CachedSession | undefined>

  private readonly db: Database
  private readonly cache: SessionCache
  private readonly invalidations: Invalidations

  constructor(deps: { db: Database; sessionCache: SessionCache; invalidations: Invalidations }) {
    this.db = deps.db
    this.cache = deps.sessionCache
    this.invalidations = deps.invalidations
    this.loads = new SingleFlight(deps.sessionCache.enabled)
  }

  /** What the session cache did (the mixed bench reports it). */
  get cacheStats(): LruStats {
    return this.cache.stats
  }

  /** Starts a session and returns its bearer token (the only time the token exists in clear). */
  async create(userId: string, start: SessionStart): Promise<string> {
    const { token, tokenHash } = newToken()
    await insertSession(this.db, { userId, tokenHash, userAgent: start.userAgent?.slice(0, 512) ?? null })
    return token
  }

  async resolve(token: string): Promise<Authenticated | undefined> {
    if (!looksLikeToken(token)) return undefined
    const tokenHash = hashToken(token)
    const cached = this.cache.get(tokenHash)
    // A stale entry answers this request while one reload runs behind it; if the session ended meanwhile the
    // reload finds no row and the entry goes (an ended session is normally dropped at once by its invalidation).
    // Keyed by generation too: a request after a logout never joins a lookup that started before it.
    const load = () => this.loads.run(`${this.cache.generation}:${tokenHash}`, () => this.load(tokenHash))
    if (cached?.stale) void load().catch(() => undefined)
    const session = cached?.value ?? (await load())
    if (!session) return undefined
    const staleBefore = new Date(Date.now() - TOUCH_INTERVAL_MS)
    if (session.lastSeenAt < staleBefore) {
      // Marked first so that concurrent requests of this session do not all write; the update is conditional anyway.
      session.lastSeenAt = new Date()
      await touchSession(this.db, session.sessionId, staleBefore)
    }
    return { user: session.user, sessionId: session.sessionId }
  }

  private async load(tokenHash: string): Promise<CachedSession | undefined> {
    // Taken before the read: a logout committing while we read makes the store below a no-op.
    const generation = this.cache.generation
    const row = await findSessionWithUser(this.db, tokenHash)
    if (!row) {
      this.cache.drop(tokenHash)
      return undefined
    }
    const session = { sessionId: row.sessionId, user: row.user, lastSeenAt: row.lastSeenAt }
    this.cache.setIfFresh(tokenHash, session, generation)
    return session
  }

  async revoke(sessionId: string): Promise<void> {
    await deleteSession(this.db, sessionId)
    await this.announceRevoked([sessionId])
  }

  /** Ends the sessions everywhere: cached tokens here and in every other process, and their open sockets. */
  async announceRevoked(sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return
    await this.invalidations.emit({ kind: 'sessions-ended', sessionIds: [...sessionIds] })
    for (const listener of this.revokedListeners) listener(sessionIds)
  }

  /** A member's row changed: their cached sessions reload it. */
  async memberChanged(userId: string): Promise<void> {
    await this.invalidations.emit({ kind: 'member-changed', userId })
  }

  onRevoked(listener: RevokedListener): () => void {
    this.revokedListeners.add(listener)
    return () => this.revokedListeners.delete(listener)
  }
}
