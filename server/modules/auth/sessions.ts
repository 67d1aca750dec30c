import type { Database } from '../../db/client'
import type { UserRow } from '../../db/schema'
import { deleteSession, findSessionWithUser, insertSession, touchSession } from './queries'
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

  constructor(private readonly db: Database) {}

  /** Starts a session and returns its bearer token (the only time the token exists in clear). */
  async create(userId: string, userAgent: string | undefined): Promise<string> {
    const { token, tokenHash } = newToken()
    await insertSession(this.db, { userId, tokenHash, userAgent: userAgent?.slice(0, 512) ?? null })
    return token
  }

  async resolve(token: string): Promise<Authenticated | undefined> {
    if (!looksLikeToken(token)) return undefined
    const row = await findSessionWithUser(this.db, hashToken(token))
    if (!row) return undefined
    const staleBefore = new Date(Date.now() - TOUCH_INTERVAL_MS)
    if (row.lastSeenAt < staleBefore) await touchSession(this.db, row.sessionId, staleBefore)
    return { user: row.user, sessionId: row.sessionId }
  }

  async revoke(sessionId: string): Promise<void> {
    await deleteSession(this.db, sessionId)
    this.announceRevoked([sessionId])
  }

  announceRevoked(sessionIds: readonly string[]): void {
    if (sessionIds.length === 0) return
    for (const listener of this.revokedListeners) listener(sessionIds)
  }

  onRevoked(listener: RevokedListener): () => void {
    this.revokedListeners.add(listener)
    return () => this.revokedListeners.delete(listener)
  }
}
