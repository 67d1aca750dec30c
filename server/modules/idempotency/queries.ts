import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { selectRows, toDate } from '../../db/rows'

/** A stored key: `status` and `body` are null while its first request is in flight. */
export interface KeyRecord {
  operation: string
  fingerprint: string
  createdAt: Date
  status: number | null
  body: unknown
}

export interface Claim {
  userId: string
  key: string
  operation: string
  fingerprint: string
  now: Date
  /** A row created before this is forgotten: the claim takes it over. */
  forgottenBefore: Date
  /** A row still in flight that was claimed before this was abandoned (its process died): the claim takes it over. */
  abandonedBefore: Date
}

/**
 * Claims the member's key for a request in one statement: inserts the in-flight row, or takes over a forgotten
 * (expired) one or an abandoned one (in flight for longer than any request runs). Answers false when the key is held: by a request in flight or by a kept answer. Two processes
 * claiming at once meet on the primary key; exactly one of them wins.
 */
export async function claimKey(db: Database, claim: Claim): Promise<boolean> {
  const rows = await selectRows<{ key: string }>(
    db,
    sql`insert into idempotency_keys (user_id, key, operation, fingerprint, created_at)
        values (${claim.userId}, ${claim.key}, ${claim.operation}, ${claim.fingerprint}, ${claim.now.toISOString()}::timestamptz)
        on conflict (user_id, key) do update
          set operation = excluded.operation, fingerprint = excluded.fingerprint, created_at = excluded.created_at,
              status = null, body = null
          where idempotency_keys.created_at < ${claim.forgottenBefore.toISOString()}::timestamptz
             or (idempotency_keys.status is null
                 and idempotency_keys.created_at < ${claim.abandonedBefore.toISOString()}::timestamptz)
        returning key`,
  )
  return rows.length === 1
}

export async function findKey(db: Database, userId: string, key: string): Promise<KeyRecord | undefined> {
  const [row] = await selectRows<{ operation: string; fingerprint: string; created_at: unknown; status: number | null; body: unknown }>(
    db,
    sql`select operation, fingerprint, created_at, status, body from idempotency_keys
        where user_id = ${userId} and key = ${key}`,
  )
  return row && { operation: row.operation, fingerprint: row.fingerprint, createdAt: toDate(row.created_at), status: row.status, body: row.body }
}

/** Keeps the write's answer with the key (only the claim that made the row may: same fingerprint, still in flight). */
export async function completeKey(
  db: Database,
  where: { userId: string; key: string; fingerprint: string },
  answer: { status: number; body?: unknown },
): Promise<void> {
  await db.execute(
    sql`update idempotency_keys set status = ${answer.status}, body = ${JSON.stringify(answer.body ?? null)}::jsonb
        where user_id = ${where.userId} and key = ${where.key} and fingerprint = ${where.fingerprint} and status is null`,
  )
}

/** Frees a key whose request failed, so a retry runs the write. */
export async function releaseKey(db: Database, where: { userId: string; key: string; fingerprint: string }): Promise<void> {
  await db.execute(
    sql`delete from idempotency_keys
        where user_id = ${where.userId} and key = ${where.key} and fingerprint = ${where.fingerprint} and status is null`,
  )
}

/** Deletes up to `limit` forgotten keys; answers how many went. */
export async function deleteForgottenKeys(db: Database, forgottenBefore: Date, limit: number): Promise<number> {
  const rows = await selectRows<{ key: string }>(
    db,
    sql`delete from idempotency_keys
        where (user_id, key) in (
          select user_id, key from idempotency_keys
          where created_at < ${forgottenBefore.toISOString()}::timestamptz
          limit ${limit})
        returning key`,
  )
  return rows.length
}
