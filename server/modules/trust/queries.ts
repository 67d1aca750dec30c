import { sql } from 'drizzle-orm'
import type { SqlExecutor } from '../../db/rows'
import { selectRows } from '../../db/rows'
import { cursorTime, type Cursor } from '../../lib/cursor'

// SQL of the key history (kept by the trigger of migration 0020) and of the sealed trust records.

export interface KeyHistoryRow {
  id: string
  public_key: string
  since: string | Date
  until: string | Date | null
  /** `since` in microseconds, for the cursor. */
  at: string
}

/** One page of a member's keys, newest first, after the cursor's position. */
export async function keyHistoryPage(db: SqlExecutor, userId: string, cursor: Cursor | undefined, limit: number): Promise<KeyHistoryRow[]> {
  return selectRows<KeyHistoryRow>(
    db,
    sql`select id, public_key, since, until, ((extract(epoch from since) * 1000000)::bigint)::text as at
        from member_key_history
        where user_id = ${userId}
          ${cursor ? sql`and (since, id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by since desc, id desc
        limit ${limit}`,
  )
}

export interface TrustRecordRow {
  record: string
  updated_at: string | Date
}

export async function findTrustRecord(db: SqlExecutor, ownerId: string, contactId: string): Promise<TrustRecordRow | undefined> {
  const [row] = await selectRows<TrustRecordRow>(
    db,
    sql`select record, updated_at from trust_records where owner_id = ${ownerId} and contact_id = ${contactId}`,
  )
  return row
}

/** Inserts or replaces the owner's record for the contact. */
export async function storeTrustRecord(db: SqlExecutor, ownerId: string, contactId: string, record: string): Promise<TrustRecordRow> {
  const [row] = await selectRows<TrustRecordRow>(
    db,
    sql`insert into trust_records (owner_id, contact_id, record, updated_at)
        values (${ownerId}, ${contactId}, ${record}, now())
        on conflict (owner_id, contact_id) do update set record = excluded.record, updated_at = excluded.updated_at
        returning record, updated_at`,
  )
  if (!row) throw new Error('The trust record was not stored')
  return row
}
