import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import type { KdfSettings } from '../../../src/api/contract/kdf'
import { sessions, users, type UserRow } from '../../db/schema'
import { passwordResetTokens } from '../../db/schema-password-reset'
import { signInChallenges } from '../../db/schema-two-factor'

/**
 * A new link for the member: older outstanding ones are deleted in the same transaction (only the newest works). The
 * member's row is locked first, so two links asked for at once take turns and the later replaces the earlier.
 */
export async function replaceResetToken(
  db: Database,
  userId: string,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from users where id = ${userId} for update`)
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId))
    await tx.insert(passwordResetTokens).values({ userId, tokenHash, expiresAt })
  })
}

/** The member a usable link (unused, not expired) belongs to. */
export async function findResetUser(db: Database, tokenHash: string, now: Date): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now),
      ),
    )
    .limit(1)
  return row?.user
}

export interface ResetWrite {
  userId: string
  tokenHash: string
  now: Date
  passwordHash: string
  kdf: KdfSettings
  /** The private key as it will be stored: the same key re-wrapped, or a new pair's (with its public key). */
  keys:
    | { kind: 'none' }
    | { kind: 'same'; wrappedPrivateKey: string; publicKey: string }
    | { kind: 'new'; wrappedPrivateKey: string; publicKey: string }
}

/**
 * The reset, all or nothing: spends the link (one conditional UPDATE, so two resets racing with one link cannot both
 * pass), stores the new credentials and key, ends every session and pending second step, deletes the member's other
 * links and, with a new key pair, the recovery copy (it opens the old key). The keys are written only if the account's
 * public key is still the one the browser was shown, so a key pair stored meanwhile is never overwritten unseen.
 * Undefined when the link was spent, expired or the keys changed meanwhile; else the ended sessions' ids.
 */
export async function applyReset(db: Database, write: ResetWrite): Promise<string[] | undefined> {
  try {
    return await resetInTransaction(db, write)
  } catch (err) {
    if (err instanceof ResetRaced) return undefined
    throw err
  }
}

/** Thrown inside the transaction to undo the spent link when the keys no longer are what the browser saw. */
class ResetRaced extends Error {}

function resetInTransaction(db: Database, write: ResetWrite): Promise<string[] | undefined> {
  return db.transaction(async (tx) => {
    const spent = await tx
      .update(passwordResetTokens)
      .set({ usedAt: write.now })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, write.tokenHash),
          eq(passwordResetTokens.userId, write.userId),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, write.now),
        ),
      )
      .returning({ id: passwordResetTokens.id })
    if (spent.length === 0) return undefined
    const { keys } = write
    const keyColumns =
      keys.kind === 'none'
        ? {}
        : keys.kind === 'same'
          ? { wrappedPrivateKey: keys.wrappedPrivateKey }
          : {
              wrappedPrivateKey: keys.wrappedPrivateKey,
              publicKey: keys.publicKey,
              keysRequested: false,
              messageRecoveryKey: null,
            }
    const keyCondition =
      keys.kind === 'none'
        ? sql`${users.publicKey} is null`
        : keys.kind === 'same'
          ? eq(users.publicKey, keys.publicKey)
          : sql`true`
    const changed = await tx
      .update(users)
      .set({ passwordHash: write.passwordHash, kdf: write.kdf, ...keyColumns, updatedAt: sql`now()` })
      .where(and(eq(users.id, write.userId), keyCondition))
      .returning({ id: users.id })
    if (changed.length === 0) throw new ResetRaced()
    const revoked = await tx.delete(sessions).where(eq(sessions.userId, write.userId)).returning({ id: sessions.id })
    await tx.delete(signInChallenges).where(eq(signInChallenges.userId, write.userId))
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, write.userId))
    return revoked.map((r) => r.id)
  })
}

/** Stores the recovery copy for a member who has a key pair; false if they have none. */
export async function storeRecoveryCopy(db: Database, userId: string, wrapped: string): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ messageRecoveryKey: wrapped, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), sql`${users.wrappedPrivateKey} is not null`))
    .returning()
  return row
}

export async function removeRecoveryCopy(db: Database, userId: string): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ messageRecoveryKey: null, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning()
  return row
}
