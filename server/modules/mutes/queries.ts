import { sql } from 'drizzle-orm'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'
import { blockedBetween } from '../visibility/visibility'

/**
 * Mutes `mutedId` for `muterId` with an optional reason, unless already muted. Returns when the mute was made, or
 * undefined when it existed (the primary key decides, so two mutes at once make one row).
 */
export async function addUserMute(
  db: SqlExecutor,
  muterId: string,
  mutedId: string,
  reason: string | null,
): Promise<string | undefined> {
  const [row] = await selectRows<{ created_at: unknown }>(
    db,
    sql`insert into user_mutes (muter_id, muted_id, reason) values (${muterId}, ${mutedId}, ${reason})
        on conflict do nothing returning created_at`,
  )
  return row ? new Date(row.created_at as string | Date).toISOString() : undefined
}

/** False when the member was not muted. */
/** Whether `muterId` muted `mutedId` (one primary-key probe). */
export async function isMuting(db: SqlExecutor, muterId: string, mutedId: string): Promise<boolean> {
  const rows = await selectRows<{ one: number }>(
    db,
    sql`select 1 as one from user_mutes where muter_id = ${muterId} and muted_id = ${mutedId}`,
  )
  return rows.length > 0
}

export async function removeUserMute(db: SqlExecutor, muterId: string, mutedId: string): Promise<boolean> {
  const rows = await selectRows<{ muted_id: string }>(
    db,
    sql`delete from user_mutes where muter_id = ${muterId} and muted_id = ${mutedId} returning muted_id`,
  )
  return rows.length > 0
}

export interface MutedUserRow {
  id: string
  username: string
  display_name: string
  avatar: string | null
  verified: boolean
  reason: string | null
  created_at: unknown
  at: string
}

/**
 * One page of the members the muter muted, most recent mute first; keyset on (mute time, member id). Members on the
 * other side of a block are left out while it lasts: across the wall each is as if absent to the other.
 */
export async function mutedUserPage(
  db: SqlExecutor,
  muterId: string,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<MutedUserRow[]> {
  return selectRows<MutedUserRow>(
    db,
    sql`select u.id, u.username, u.display_name, u.avatar, u.verified, m.reason, m.created_at,
          ${micros(sql.raw('m.created_at'))} as at
        from user_mutes m join users u on u.id = m.muted_id
        where m.muter_id = ${muterId} and not ${blockedBetween(muterId, sql.raw('m.muted_id'))}
          ${cursor ? sql`and (m.created_at, m.muted_id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by m.created_at desc, m.muted_id desc
        offset ${offset} limit ${limit}`,
  )
}
