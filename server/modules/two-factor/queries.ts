import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { selectRows, type SqlExecutor } from '../../db/rows'
import type { SessionStart } from '../auth/sessions'

// SQL of two-factor sign-in (schema-two-factor.ts). Every "use once" rule is one conditional UPDATE or DELETE with
// RETURNING: two requests racing with the same code, recovery code or ticket cannot both see it unused.

export interface TwoFactorRow {
  secret: string
  enabled: boolean
  lastStep: number | null
}

export async function findTwoFactor(db: SqlExecutor, userId: string): Promise<TwoFactorRow | undefined> {
  const [row] = await selectRows<{ secret: string; enabled: boolean; last_step: string | number | null }>(
    db,
    sql`select secret, enabled_at is not null as enabled, last_step from two_factor where user_id = ${userId}`,
  )
  if (!row) return undefined
  return { secret: row.secret, enabled: row.enabled, lastStep: row.last_step === null ? null : Number(row.last_step) }
}

/** A new secret set up (not enabled): replaces one set up before; nothing when 2FA is already on (false). */
export async function storePendingSecret(db: SqlExecutor, userId: string, secret: string): Promise<boolean> {
  const rows = await selectRows<{ user_id: string }>(
    db,
    sql`insert into two_factor (user_id, secret) values (${userId}, ${secret})
        on conflict (user_id) do update set secret = excluded.secret, last_step = null, created_at = now()
          where two_factor.enabled_at is null
        returning user_id`,
  )
  return rows.length === 1
}

/**
 * Accepts a code's time step once: only for a step later than the last accepted one (and, with `enabled`, only for
 * the state the caller expects), in one statement.
 */
export async function acceptStep(db: SqlExecutor, userId: string, step: number, enabled: boolean): Promise<boolean> {
  const rows = await selectRows<{ user_id: string }>(
    db,
    sql`update two_factor set last_step = ${step}
        where user_id = ${userId} and (enabled_at is not null) = ${enabled}
          and (last_step is null or last_step < ${step})
        returning user_id`,
  )
  return rows.length === 1
}

/** Spends an unused recovery code; false when it is not one of the member's or was used. */
export async function spendRecoveryCode(db: SqlExecutor, userId: string, codeHash: string): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`update recovery_codes set used_at = now()
        where id = (select id from recovery_codes where user_id = ${userId} and code_hash = ${codeHash} and used_at is null
                    limit 1)
          and used_at is null
        returning id`,
  )
  return rows.length === 1
}

async function replaceRecoveryCodes(tx: SqlExecutor, userId: string, codeHashes: readonly string[]): Promise<void> {
  await tx.execute(sql`delete from recovery_codes where user_id = ${userId}`)
  const values = codeHashes.map((hash) => sql`(${uuidv7()}, ${userId}, ${hash})`)
  await tx.execute(sql`insert into recovery_codes (id, user_id, code_hash) values ${sql.join(values, sql`, `)}`)
}

/** Turns 2FA on with its recovery codes, in one transaction; false when it was on already (or never set up). */
export async function enable(db: Database, userId: string, codeHashes: readonly string[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await selectRows<{ user_id: string }>(
      tx,
      sql`update two_factor set enabled_at = now() where user_id = ${userId} and enabled_at is null returning user_id`,
    )
    if (rows.length !== 1) return false
    await tx.execute(sql`update users set two_factor_enabled = true, updated_at = now() where id = ${userId}`)
    await replaceRecoveryCodes(tx, userId, codeHashes)
    return true
  })
}

/** New recovery codes for a member with 2FA on; false when it is off. */
export async function regenerateRecoveryCodes(db: Database, userId: string, codeHashes: readonly string[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await selectRows<{ user_id: string }>(
      tx,
      sql`select user_id from two_factor where user_id = ${userId} and enabled_at is not null for update`,
    )
    if (rows.length !== 1) return false
    await replaceRecoveryCodes(tx, userId, codeHashes)
    return true
  })
}

/** Everything two-factor of a member goes: the secret, the recovery codes, pending second steps. Was it on? */
export async function clearTwoFactor(tx: SqlExecutor, userId: string): Promise<boolean> {
  const rows = await selectRows<{ enabled: boolean }>(
    tx,
    sql`delete from two_factor where user_id = ${userId} returning enabled_at is not null as enabled`,
  )
  await tx.execute(sql`delete from recovery_codes where user_id = ${userId}`)
  await tx.execute(sql`delete from sign_in_challenges where user_id = ${userId}`)
  await tx.execute(sql`update users set two_factor_enabled = false, updated_at = now() where id = ${userId}`)
  return rows[0]?.enabled ?? false
}

// ---- pending second steps ------------------------------------------------------------------------------------------

export async function insertChallenge(
  db: SqlExecutor,
  values: { userId: string; ticketHash: string; start: SessionStart; expiresAt: Date; now: Date },
): Promise<void> {
  // Expired ones of anyone are swept here (indexed), so the table holds only the last few minutes of sign-ins.
  await db.execute(sql`delete from sign_in_challenges where expires_at <= ${values.now.toISOString()}`)
  await db.execute(
    sql`insert into sign_in_challenges (id, user_id, ticket_hash, session_start, expires_at)
        values (${uuidv7()}, ${values.userId}, ${values.ticketHash}, ${JSON.stringify(values.start)}::jsonb,
                ${values.expiresAt.toISOString()})`,
  )
}

export interface ChallengeRow {
  id: string
  userId: string
  start: SessionStart
}

/** A ticket still good at `now`; an expired one is deleted and not answered. */
export async function findChallenge(db: SqlExecutor, ticketHash: string, now: Date): Promise<ChallengeRow | undefined> {
  const [row] = await selectRows<{ id: string; user_id: string; session_start: SessionStart; live: boolean }>(
    db,
    sql`select id, user_id, session_start, expires_at > ${now.toISOString()} as live
        from sign_in_challenges where ticket_hash = ${ticketHash}`,
  )
  if (!row) return undefined
  if (!row.live) {
    await db.execute(sql`delete from sign_in_challenges where id = ${row.id}`)
    return undefined
  }
  return { id: row.id, userId: row.user_id, start: row.session_start }
}

/** Takes the ticket: true for the one request that deleted it. */
export async function takeChallenge(db: SqlExecutor, id: string): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(db, sql`delete from sign_in_challenges where id = ${id} returning id`)
  return rows.length === 1
}
