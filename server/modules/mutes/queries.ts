import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'
import { blockedBetween, wordsOf } from '../visibility/visibility'

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

// ---- keywords and domains ---------------------------------------------------------------------------------------

export type MuteList = 'keywords' | 'domains'

const tableOf = { keywords: sql.raw('muted_keywords'), domains: sql.raw('muted_domains') } as const
const columnOf = { keywords: sql.raw('keyword'), domains: sql.raw('domain') } as const

export interface MutedValueRow {
  id: string
  value: string
  created_at: unknown
}

/** The member's muted keywords or domains, alphabetically. */
export async function listMuted(db: SqlExecutor, list: MuteList, userId: string): Promise<MutedValueRow[]> {
  return selectRows<MutedValueRow>(
    db,
    sql`select id, ${columnOf[list]} as value, created_at from ${tableOf[list]} where user_id = ${userId}
        order by lower(${columnOf[list]}), ${columnOf[list]}`,
  )
}

/**
 * Adds a keyword or domain unless the member already has it (compared case-insensitively) or has `cap` of them;
 * the new row otherwise. The member's row is locked first, so two adds at once cannot both pass the cap. A keyword's
 * `pattern` is made with the expression the feed applies to post text (visibility/visibility.ts, `wordsOf`).
 */
export async function addMuted(
  tx: Database,
  list: MuteList,
  userId: string,
  value: string,
  cap: number,
): Promise<MutedValueRow | 'exists' | 'full'> {
  await tx.execute(sql`select id from users where id = ${userId} for no key update`)
  const [existing] = await selectRows<{ n: number; same: number }>(
    tx,
    sql`select count(*)::int as n, count(*) filter (where lower(${columnOf[list]}) = lower(${value}))::int as same
        from ${tableOf[list]} where user_id = ${userId}`,
  )
  if ((existing?.same ?? 0) > 0) return 'exists'
  if ((existing?.n ?? 0) >= cap) return 'full'
  const [row] = await selectRows<MutedValueRow>(
    tx,
    list === 'keywords'
      ? sql`insert into muted_keywords (id, user_id, keyword, pattern)
            values (${uuidv7()}, ${userId}, ${value}, ${wordsOf(sql`${value}::text`)})
            returning id, keyword as value, created_at`
      : sql`insert into muted_domains (id, user_id, domain) values (${uuidv7()}, ${userId}, ${value})
            returning id, domain as value, created_at`,
  )
  if (!row) throw new Error(`the muted ${list} row was not returned`)
  return row
}

/** Removes a keyword or domain, compared case-insensitively; false when the member had none such. */
export async function removeMuted(db: SqlExecutor, list: MuteList, userId: string, value: string): Promise<boolean> {
  const rows = await selectRows<{ user_id: string }>(
    db,
    sql`delete from ${tableOf[list]} where user_id = ${userId} and lower(${columnOf[list]}) = lower(${value})
        returning user_id`,
  )
  return rows.length > 0
}
