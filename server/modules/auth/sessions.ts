import type { Database } from '../../db/client'
import type { UserRow } from '../../db/schema'
import type { Invalidations } from '../../cache/invalidations'
import { deleteSession, findSessionWithUser, insertSession, touchSession } from './queries'
import type { SessionCache } from './session-cache'
import { hashToken, looksLikeToken, newToken } from './tokens'

/** The member behind a request's bearer token. */
export interface Authenticated {
  user: UserRow
  sessionId: string
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

  constructor(
    private readonly db: Database,
    private readonly cache: SessionCache,
    private readonly invalidations: Invalidations,
  ) {}

  /** Starts a session and returns its bearer token (the only time the token exists in clear). */
  async create(userId: string, userAgent: string | undefined): Promise<string> {
    const { token, tokenHash } = newToken()
    await insertSession(this.db, { userId, tokenHash, userAgent: userAgent?.slice(0, 512) ?? null })
    return token
  }

  async resolve(token: string): Promise<Authenticated | undefined> {
    if (!looksLikeToken(token)) return undefined
    const tokenHash = hashToken(token)
    let session = this.cache.get(tokenHash)
    if (!session) {
      // Taken before the read: a logout committing while we read makes the store below a no-op.
      const generation = this.cache.generation
      const row = await findSessionWithUser(this.db, tokenHash)
      if (!row) return undefined
      session = { sessionId: row.sessionId, user: row.user, lastSeenAt: row.lastSeenAt }
      this.cache.setIfFresh(tokenHash, session, generation)
    }
    const staleBefore = new Date(Date.now() - TOUCH_INTERVAL_MS)
    if (session.lastSeenAt < staleBefore) {
      // Marked first so that concurrent requests of this session do not all write; the update is conditional anyway.
      session.lastSeenAt = new Date()
      await touchSession(this.db, session.sessionId, staleBefore)
    }
    return { user: session.user, sessionId: session.sessionId }
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
