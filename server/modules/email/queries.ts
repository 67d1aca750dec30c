import { and, eq, ne, sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { selectRows, toDate, type SqlExecutor } from '../../db/rows'
import { users, type UserRow } from '../../db/schema'

// SQL of email verification (schema-email.ts). A link is used once: taking it is one DELETE ... RETURNING, so two
// tabs opening the same link cannot both see it unused.

const byEmail = (email: string) => sql`lower(${users.email}) = lower(${email})`

/** Does another account use this address? (Registration asks the same of everyone.) */
export async function emailTakenByOther(db: Database, email: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(byEmail(email), ne(users.id, userId)))
    .limit(1)
  return rows.length > 0
}

/**
 * The member's one live link: every older one of theirs is deleted first. The member's row is locked first, so two
 * links asked for at once take turns and the later one replaces the earlier (without it, each would delete nothing
 * of the other's and both would stay live). `tx` must be a transaction.
 */
export async function replaceToken(
  tx: SqlExecutor,
  values: { userId: string; tokenHash: string; email: string; expiresAt: Date },
): Promise<void> {
  await tx.execute(sql`select 1 from users where id = ${values.userId} for update`)
  await tx.execute(sql`delete from email_tokens where user_id = ${values.userId}`)
  await tx.execute(
    sql`insert into email_tokens (id, user_id, token_hash, purpose, email, expires_at)
        values (${uuidv7()}, ${values.userId}, ${values.tokenHash}, 'verify', ${values.email},
                ${values.expiresAt.toISOString()})`,
  )
}

export interface TakenToken {
  userId: string
  email: string
  expiresAt: Date
}

/** Takes a link by its hash (whether or not it is still valid: an expired one is gone either way). */
export async function takeToken(db: SqlExecutor, tokenHash: string): Promise<TakenToken | undefined> {
  const [row] = await selectRows<{ user_id: string; email: string; expires_at: unknown }>(
    db,
    sql`delete from email_tokens where token_hash = ${tokenHash} and purpose = 'verify'
        returning user_id, email, expires_at`,
  )
  return row && { userId: row.user_id, email: row.email, expiresAt: toDate(row.expires_at) }
}

/** The address a link confirmed is the member's current one: marked confirmed (the first time only). */
export async function confirmCurrent(db: Database, userId: string, email: string, at: Date): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${at.toISOString()}::timestamptz)`, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), byEmail(email)))
    .returning()
  return row
}

/**
 * The link confirmed the member's pending new address: it becomes their email, confirmed. The unique index on
 * lower(email) decides a race with a registration or another member's change of the same address.
 */
export async function confirmPending(db: Database, userId: string, email: string, at: Date): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ email: users.pendingEmail, pendingEmail: null, emailVerifiedAt: at, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), sql`lower(${users.pendingEmail}) = lower(${email})`))
    .returning()
  return row
}

export async function setPendingEmail(tx: Database, userId: string, email: string): Promise<UserRow | undefined> {
  const [row] = await tx
    .update(users)
    .set({ pendingEmail: email, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning()
  return row
}
