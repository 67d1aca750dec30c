import { and, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import type { KdfSettings } from '../../../src/api/contract/kdf'
import { SESSION_LIFETIMES } from '../../../src/api/contract/session-lifetimes'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'
import { sessions, users, type UserRow } from '../../db/schema'
import { signInChallenges } from '../../db/schema-two-factor'
import { passwordResetTokens } from '../../db/schema-password-reset'

/** A stored credential: the hash of the derived secret and the settings it was derived with. */
export interface Credentials {
  passwordHash: string
  kdf: KdfSettings
}

// Any fixed 64-bit number, held only while the very first account is inserted.
const FIRST_ACCOUNT_LOCK = 7_201_955_414n

const byUsername = (username: string) => sql`lower(${users.username}) = lower(${username})`
const byEmail = (email: string) => sql`lower(${users.email}) = lower(${email})`

/** Usernames cannot contain "@", so the sign alone tells which unique index to use. */
export async function findUserByLogin(db: Database, login: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`${login.includes('@') ? byEmail(login) : byUsername(login)} and ${users.deletedAt} is null`)
    .limit(1)
  return row
}

/** Which of the two identities is already used (username first), case-insensitively. */
export async function findTakenIdentity(
  db: Database,
  username: string,
  email: string,
): Promise<'username' | 'email' | undefined> {
  const rows = await db
    .select({ usernameTaken: byUsername(username).mapWith(Boolean) })
    .from(users)
    .where(sql`${byUsername(username)} or ${byEmail(email)}`)
    .limit(2)
  if (rows.length === 0) return undefined
  return rows.some((r) => r.usernameTaken) ? 'username' : 'email'
}

export interface NewUser {
  username: string
  email: string
  displayName: string
  passwordHash: string
  kdf: KdfSettings
  publicKey?: string
  wrappedPrivateKey?: string
}

/**
 * Inserts an account; the first account of the instance is its admin. While the table is empty the insert runs under
 * a transaction-scoped advisory lock, so of two simultaneous first registrations the second waits, then sees the
 * first row in its `not exists` and is not made admin. Once anyone exists no lock is taken.
 * Duplicate names are refused by the unique indexes (the caller maps the error).
 */
export async function insertUser(db: Database, values: NewUser): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [anyone] = await tx.select({ id: users.id }).from(users).limit(1)
    if (!anyone) await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK.toString()}::bigint)`)
    const [row] = await tx
      .insert(users)
      .values({ ...values, isAdmin: sql`not exists (select 1 from ${users})` })
      .returning()
    if (!row) throw new Error('insert into users returned no row')
    return row
  })
}

export async function setPasswordHash(db: Database, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: sql`now()` }).where(eq(users.id, userId))
}

/**
 * New password (and the private key re-wrapped under it, for a member with keys) and the end of every other session,
 * together or not at all: a hash without its re-wrapped key would leave a key nobody can unwrap. The update holds
 * only if the member's keys are as the caller believed (a re-wrapped key exactly when keys exist), decided by the
 * statement itself, so keys set by another tab a moment earlier cannot be left wrapped under the old password.
 * Returns the revoked session ids, or undefined (nothing changed) when the keys were not as believed.
 */
export async function replacePasswordRevokingOthers(
  db: Database,
  userId: string,
  credentials: Credentials,
  wrappedPrivateKey: string | undefined,
  keepSessionId: string,
): Promise<string[] | undefined> {
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(users)
      .set({ ...credentials, ...(wrappedPrivateKey === undefined ? {} : { wrappedPrivateKey }), updatedAt: sql`now()` })
      .where(
        and(
          eq(users.id, userId),
          wrappedPrivateKey === undefined ? sql`${users.wrappedPrivateKey} is null` : sql`${users.wrappedPrivateKey} is not null`,
        ),
      )
      .returning({ id: users.id })
    if (changed.length === 0) return undefined
    const revoked = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
      .returning({ id: sessions.id })
    // A sign-in waiting for its code was started with the old password: it must not become a session after the change.
    await tx.delete(signInChallenges).where(eq(signInChallenges.userId, userId))
    // A reset link mailed before the change must not undo it.
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId))
    return revoked.map((r) => r.id)
  })
}

/**
 * A legacy account's move to derived secrets: hash, settings and (for a member with keys) the wk2 key in one
 * statement, holding only while the account is still legacy and its keys are as the browser believed (a re-wrapped
 * key exactly when one is stored). Undefined when nothing changed.
 */
export async function upgradeCredentials(
  db: Database,
  userId: string,
  credentials: Credentials,
  wrappedPrivateKey: string | undefined,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...credentials, ...(wrappedPrivateKey === undefined ? {} : { wrappedPrivateKey }), updatedAt: sql`now()` })
    .where(
      and(
        eq(users.id, userId),
        sql`${users.kdf} is null`,
        wrappedPrivateKey === undefined ? sql`${users.wrappedPrivateKey} is null` : sql`${users.wrappedPrivateKey} is not null`,
      ),
    )
    .returning()
  return row
}

/**
 * Stores a member's key pair if they have none or an admin asked for new ones, and clears that request; one
 * conditional statement, so two tabs racing both to set keys store one pair. Undefined when keys already exist.
 */
export async function storeKeyPair(
  db: Database,
  userId: string,
  keys: { publicKey: string; wrappedPrivateKey: string },
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...keys, keysRequested: false, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), sql`(${users.publicKey} is null or ${users.keysRequested})`))
    .returning()
  return row
}

export interface NewSession {
  userId: string
  tokenHash: string
  userAgent: string | null
  remember: boolean
  createdAt: Date
  expiresAt: Date
  ip: string | null
}

export async function insertSession(db: Database, values: NewSession): Promise<string> {
  const { ip, createdAt, ...rest } = values
  const [row] = await db
    .insert(sessions)
    .values({ ...rest, createdAt, lastSeenAt: createdAt, createdIp: ip, lastIp: ip })
    .returning({ id: sessions.id })
  if (!row) throw new Error('insert into sessions returned no row')
  return row.id
}

/** The session for a token hash and its member, in one round trip (every authenticated request runs this). */
export async function findSessionWithUser(db: Database, tokenHash: string) {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      remember: sessions.remember,
      expiresAt: sessions.expiresAt,
      user: users,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1)
  return row
}

/** One session's last use, to be written by touchSessions. */
export interface SessionTouch {
  sessionId: string
  /**
   * Written only over a last use older than this: concurrent requests of one session write at most once per interval.
   */
  staleBefore: Date
  at: Date
  /** "Last used from" is as precise as "last active"; a use that brings no address (a socket) keeps the one stored. */
  ip: string | undefined
}

/**
 * Sessions' last uses, in one statement (one commit instead of one per session). Rows are locked in id order, so two
 * processes writing overlapping batches wait for each other instead of deadlocking.
 */
export async function touchSessions(db: Database, touches: readonly SessionTouch[]): Promise<void> {
  if (touches.length === 0) return
  const ids = touches.map((t) => t.sessionId)
  const stale = touches.map((t) => t.staleBefore.toISOString())
  const at = touches.map((t) => t.at.toISOString())
  const ips = touches.map((t) => t.ip ?? null)
  // The rows are locked by a SELECT ... ORDER BY ... FOR UPDATE first: an UPDATE joined to a list locks in whatever
  // order its plan reads them.
  await db.execute(sql`
    with v as (
           select * from unnest(${sql.param(ids)}::uuid[], ${sql.param(stale)}::timestamptz[],
                                ${sql.param(at)}::timestamptz[], ${sql.param(ips)}::text[]) as v(id, stale_before, at, ip)),
         locked as (
           select s.id from ${sessions} s join v on v.id = s.id
            where s.last_seen_at < v.stale_before order by s.id for update of s)
    update ${sessions} s
       set last_seen_at = v.at, last_ip = coalesce(v.ip, s.last_ip)
      from v join locked on locked.id = v.id
     where s.id = v.id and s.last_seen_at < v.stale_before`)
}

export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId))
}

/** SQL: the session has ended at `now` (its absolute end, or its idle limit after its last use). */
function ended(now: Date): SQL {
  const { remembered, unremembered } = SESSION_LIFETIMES
  const at = sql`${now.toISOString()}::timestamptz`
  return sql`(${sessions.expiresAt} <= ${at} or ${sessions.lastSeenAt} <= ${at} - case when ${sessions.remember}
    then ${remembered.idleMs} * interval '1 millisecond' else ${unremembered.idleMs} * interval '1 millisecond' end)`
}

/** Deletes up to `batch` sessions that have ended by `now`; answers their ids (to announce). */
export async function deleteEndedSessions(db: Database, now: Date, batch: number): Promise<string[]> {
  const doomed = db.select({ id: sessions.id }).from(sessions).where(ended(now)).limit(batch)
  const rows = await db.delete(sessions).where(inArray(sessions.id, doomed)).returning({ id: sessions.id })
  return rows.map((r) => r.id)
}

export interface SessionListRow {
  id: string
  userAgent: string | null
  createdIp: string | null
  lastIp: string | null
  createdAt: Date
  lastSeenAt: Date
  expiresAt: Date
  /** The keyset position: last_seen_at in microseconds. */
  at: string
}

/**
 * One page of a member's sessions still running at `now`: the current one first, then the others by last use, most
 * recent first; keyset on (last_seen_at, id). A cursor naming the current session (a page of one) starts the others.
 */
export async function sessionPage(
  db: Database,
  userId: string,
  currentId: string,
  now: Date,
  page: { cursor: Cursor | undefined; offset: number; limit: number },
): Promise<SessionListRow[]> {
  const { cursor } = page
  const after =
    cursor === undefined
      ? sql`true`
      : cursor.id === currentId
        ? sql`${sessions.id} <> ${currentId}`
        : sql`${sessions.id} <> ${currentId} and (${sessions.lastSeenAt}, ${sessions.id}) < (${cursorTime(cursor)}, ${cursor.id}::uuid)`
  return db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      createdIp: sessions.createdIp,
      lastIp: sessions.lastIp,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      at: micros(sessions.lastSeenAt).mapWith(String),
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), sql`not ${ended(now)}`, after))
    .orderBy(sql`${sessions.id} = ${currentId} desc`, desc(sessions.lastSeenAt), desc(sessions.id))
    .offset(page.offset)
    .limit(page.limit)
}

/** Deletes the member's session `sessionId`; false when they have none by that id (someone else's included). */
export async function deleteOwnSession(db: Database, userId: string, sessionId: string): Promise<boolean> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId)))
    .returning({ id: sessions.id })
  return rows.length > 0
}

/** Deletes every session of the member but `keepId`; answers their ids. */
export async function deleteOtherSessions(db: Database, userId: string, keepId: string): Promise<string[]> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
    .returning({ id: sessions.id })
  return rows.map((r) => r.id)
}
