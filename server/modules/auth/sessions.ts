import { lifetimeOf } from '../../../src/api/contract/session-lifetimes'
import type { Database } from '../../db/client'
import { isUuid } from '../../db/ids'
import type { Authenticated } from '../../lib/authenticated'
import type { Invalidations } from '../../cache/invalidations'
import type { LruStats } from '../../cache/lru'
import { SingleFlight } from '../../cache/single-flight'
import type { Clock } from '../../lib/clock'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { NotFound } from '../../lib/domain-errors'
import type { Schemas } from '../../http/handler-types'
import {
  deleteEndedSessions,
  deleteOtherSessions,
  deleteOwnSession,
  deleteSession,
  findSessionWithUser,
  insertSession,
  sessionPage,
  touchSessions,
} from './queries'
import type { CachedSession, SessionCache } from './session-cache'
import { SessionTouches } from './session-touches'
import { hashToken, looksLikeToken, newToken } from './tokens'
import { describeUserAgent } from './user-agents'

/** How a session begins: what the sign-in request says about the device, kept with the session. */
export interface SessionStart {
  userAgent?: string
  /** The client's address as Fastify decides it (TRUST_PROXY): stored as "signed in from". */
  ip?: string
  /**
   * "Remember me": the long lifetimes (src/api/contract/session-lifetimes.ts). Absent is false, as the login form's
   * checkbox starts; registration always remembers.
   */
  remember?: boolean
}

export const SESSION_NOT_FOUND = 'Session not found'

type RevokedListener = (sessionIds: readonly string[]) => void

// last_seen_at is for "active sessions" lists, not security: minute precision saves a write per request.
const TOUCH_INTERVAL_MS = 60_000
/** How often ended sessions nobody used again are deleted (and their sockets dropped); a batch at a time. */
export const SESSION_SWEEP_INTERVAL_MS = 5 * 60_000
const SWEEP_BATCH = 500

/** Ended at `now`: past its absolute end, or unused for longer than its idle limit. Memory only: no query. */
export function sessionEnded(session: Pick<CachedSession, 'expiresAt' | 'idleMs' | 'lastSeenAt'>, now: number) {
  return now >= session.expiresAt || now - session.lastSeenAt.getTime() >= session.idleMs
}

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
  private readonly clock: Clock
  private readonly warn: (message: string, err: unknown) => void
  private sweeper: NodeJS.Timeout | undefined
  private sweeping: Promise<unknown> = Promise.resolve()
  private readonly touches: SessionTouches

  constructor(deps: {
    db: Database
    sessionCache: SessionCache
    invalidations: Invalidations
    clock: Clock
    warn?: (message: string, err: unknown) => void
  }) {
    this.db = deps.db
    this.cache = deps.sessionCache
    this.invalidations = deps.invalidations
    this.clock = deps.clock
    this.warn = deps.warn ?? (() => undefined)
    this.loads = new SingleFlight(deps.sessionCache.enabled)
    this.touches = new SessionTouches(deps.db, this.warn)
  }

  /** Starts the periodic sweep (the app does, once ready; stopped by `close`). */
  startSweeping(intervalMs = SESSION_SWEEP_INTERVAL_MS): void {
    this.sweeper ??= setInterval(() => void this.sweepEnded(), intervalMs)
    this.sweeper.unref()
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper)
    this.sweeper = undefined
    await this.sweeping
    await this.touched()
  }

  /** Resolves when the last-used touches recorded so far are written (or have failed and been logged). */
  async touched(): Promise<void> {
    await this.touches.flush()
  }

  /**
   * Deletes every session that has ended (absolute end or idle limit) and announces them, so sockets of sessions that
   * expired without another request drop too. Answers how many ended. Never throws: a failed sweep is logged and the
   * next one tries again.
   */
  sweepEnded(): Promise<number> {
    const run = (async () => {
      let total = 0
      try {
        for (;;) {
          const ids = await deleteEndedSessions(this.db, new Date(this.clock.now()), SWEEP_BATCH)
          await this.announceRevoked(ids)
          total += ids.length
          if (ids.length < SWEEP_BATCH) return total
        }
      } catch (err) {
        this.warn('could not sweep ended sessions', err)
        return total
      }
    })()
    this.sweeping = run
    return run
  }

  /** What the session cache did (the mixed bench reports it). */
  get cacheStats(): LruStats {
    return this.cache.stats
  }

  /** Starts a session and returns its bearer token (the only time the token exists in clear). */
  async create(userId: string, start: SessionStart): Promise<string> {
    const { token, tokenHash } = newToken()
    const now = this.clock.now()
    await insertSession(this.db, {
      userId,
      tokenHash,
      userAgent: start.userAgent?.slice(0, 512) ?? null,
      remember: start.remember ?? false,
      createdAt: new Date(now),
      expiresAt: new Date(now + lifetimeOf(start.remember ?? false).absoluteMs),
      ip: start.ip ?? null,
    })
    return token
  }

  /**
   * The member behind a token, or undefined for a token that is unknown, revoked or ended. An ended session is
   * decided on the cached entry (no query), then deleted and announced like a revocation, so it answers exactly as a
   * revoked one and its sockets drop. `ip` (an HTTP request's address) is recorded with the once-a-minute touch.
   */
  async resolve(token: string, ip?: string): Promise<Authenticated | undefined> {
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
    const now = this.clock.now()
    if (sessionEnded(session, now)) {
      this.cache.drop(tokenHash)
      await this.revoke(session.sessionId)
      return undefined
    }
    const staleBefore = new Date(now - TOUCH_INTERVAL_MS)
    if (session.lastSeenAt < staleBefore) {
      const previous = session.lastSeenAt.getTime()
      // Marked first so that concurrent requests of this session do not all write; the update is conditional anyway.
      session.lastSeenAt = new Date(now)
      const touch = { sessionId: session.sessionId, staleBefore, at: session.lastSeenAt, ip }
      // Far from the idle limit the write is gathered with others' and made within a second (SessionTouches; a message
      // send or a socket's handshake does not wait for it): whoever reads the previous time meanwhile (another
      // process, the sweep) still finds the session alive for half a limit. Near the limit the request answers only
      // once it is written, or a reader could take a session in use for an idle one. `close` and `touched` wait for
      // the gathered ones.
      if (now - previous < session.idleMs / 2) this.touches.add(touch)
      else await touchSessions(this.db, [touch])
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
    const session: CachedSession = {
      sessionId: row.sessionId,
      user: row.user,
      lastSeenAt: row.lastSeenAt,
      expiresAt: row.expiresAt.getTime(),
      idleMs: lifetimeOf(row.remember).idleMs,
    }
    this.cache.setIfFresh(tokenHash, session, generation)
    return session
  }

  async revoke(sessionId: string): Promise<void> {
    await deleteSession(this.db, sessionId)
    await this.announceRevoked([sessionId])
  }

  /** The member's running sessions, the caller's first, each with what a person recognises it by. */
  async list(auth: Authenticated, page: PageRequest): Promise<Schemas['SessionsResponse']> {
    const now = new Date(this.clock.now())
    const rows = await sessionPage(this.db, auth.user.id, auth.sessionId, now, { ...page, limit: page.limit + 1 })
    const { items, nextCursor } = keysetPage(rows, page.limit, (r) => ({
      id: r.id,
      ...describeUserAgent(r.userAgent),
      createdIp: r.createdIp,
      lastIp: r.lastIp,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      current: r.id === auth.sessionId,
    }))
    return { sessions: items, nextCursor }
  }

  /** Ends one of the member's own sessions (the current one too: that is signing out). Another's is 404 like none. */
  async revokeOwn(auth: Authenticated, sessionId: string): Promise<void> {
    if (!isUuid(sessionId) || !(await deleteOwnSession(this.db, auth.user.id, sessionId))) {
      throw new NotFound(SESSION_NOT_FOUND)
    }
    await this.announceRevoked([sessionId])
  }

  /** Ends every session of the member but the caller's; answers how many ended. */
  async revokeOthers(auth: Authenticated): Promise<number> {
    const ids = await deleteOtherSessions(this.db, auth.user.id, auth.sessionId)
    await this.announceRevoked(ids)
    return ids.length
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
