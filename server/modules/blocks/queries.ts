import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, cursorTime } from '../../lib/cursor'
import { separateInLists } from '../lists/queries'
import { lockPair, setFollow } from '../users/queries'
import { blockedBetween, wordsOf } from '../visibility/visibility'

/** Whether either member blocked the other (the wall is two-way). */
export async function isBlockedBetween(db: SqlExecutor, a: string, b: string): Promise<boolean> {
  const rows = await selectRows<{ blocked: boolean }>(db, sql`select ${blockedBetween(a, b)} as blocked`)
  return rows[0]?.blocked === true
}

/**
 * Blocks `blockedId` for `blockerId` and removes each side's follow of the other (and each from the other's lists),
 * counters included (setFollow
 * moves them only when a row really goes), in the caller's transaction. Idempotent: an existing block is kept as
 * it was. Returns when the block was made, and the lists either member lost the other from.
 */
export async function addUserBlock(
  tx: Database,
  blockerId: string,
  blockedId: string,
): Promise<{ createdAt: string; listIds: string[] }> {
  await lockPair(tx, blockerId, blockedId)
  await selectRows(
    tx,
    sql`insert into user_blocks (blocker_id, blocked_id) values (${blockerId}, ${blockedId}) on conflict do nothing`,
  )
  // In id order, like setFollow's own counter updates, so two members blocking each other cannot deadlock.
  const pairs: Array<[string, string]> = [
    [blockerId, blockedId],
    [blockedId, blockerId],
  ]
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  for (const [follower, followee] of pairs) await setFollow(tx, follower, followee, false)
  // Pending follow requests go too, both ways (docs/product.md, "Private accounts and follow requests").
  await tx.execute(
    sql`delete from follow_requests where (requester_id = ${blockerId} and target_id = ${blockedId})
        or (requester_id = ${blockedId} and target_id = ${blockerId})`,
  )
  // Each leaves the other's lists and their subscriptions (docs/product.md, "Lists").
  const listIds = await separateInLists(tx, blockerId, blockedId)
  const [row] = await selectRows<{ created_at: unknown }>(
    tx,
    sql`select created_at from user_blocks where blocker_id = ${blockerId} and blocked_id = ${blockedId}`,
  )
  return { createdAt: new Date(row?.created_at as string | Date).toISOString(), listIds }
}

export async function removeUserBlock(db: SqlExecutor, blockerId: string, blockedId: string): Promise<void> {
  await db.execute(sql`delete from user_blocks where blocker_id = ${blockerId} and blocked_id = ${blockedId}`)
}

export interface BlockedUserRow {
  id: string
  username: string
  display_name: string
  avatar: string | null
  verified: boolean
  created_at: unknown
  at: string
}

/** One page of the members the blocker blocked, most recent block first; keyset on (block time, member id). */
export async function blockedUserPage(
  db: SqlExecutor,
  blockerId: string,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<BlockedUserRow[]> {
  return selectRows<BlockedUserRow>(
    db,
    sql`select u.id, u.username, u.display_name, u.avatar, u.verified, b.created_at,
          ((extract(epoch from b.created_at) * 1000000)::bigint)::text as at
        from user_blocks b join users u on u.id = b.blocked_id
        where b.blocker_id = ${blockerId}
          ${cursor ? sql`and (b.created_at, b.blocked_id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by b.created_at desc, b.blocked_id desc
        offset ${offset} limit ${limit}`,
  )
}

// ---- keywords and domains ---------------------------------------------------------------------------------------

export type BlockList = 'keywords' | 'domains'

const tableOf = { keywords: sql.raw('blocked_keywords'), domains: sql.raw('blocked_domains') } as const
const columnOf = { keywords: sql.raw('keyword'), domains: sql.raw('domain') } as const

/** The member's blocked keywords or domains, alphabetically. */
export async function listBlocked(db: SqlExecutor, list: BlockList, userId: string): Promise<string[]> {
  const rows = await selectRows<{ value: string }>(
    db,
    sql`select ${columnOf[list]} as value from ${tableOf[list]} where user_id = ${userId}
        order by lower(${columnOf[list]}), ${columnOf[list]}`,
  )
  return rows.map((r) => r.value)
}

/**
 * Adds a keyword or domain unless the member already has it (compared case-insensitively) or has `cap` of them.
 * The member's row is locked first, so two adds at once cannot both pass the cap.
 */
export async function addBlocked(
  tx: Database,
  list: BlockList,
  userId: string,
  value: string,
  cap: number,
): Promise<'added' | 'exists' | 'full'> {
  await tx.execute(sql`select id from users where id = ${userId} for no key update`)
  const [existing] = await selectRows<{ n: number; same: number }>(
    tx,
    sql`select count(*)::int as n, count(*) filter (where lower(${columnOf[list]}) = lower(${value}))::int as same
        from ${tableOf[list]} where user_id = ${userId}`,
  )
  if ((existing?.same ?? 0) > 0) return 'exists'
  if ((existing?.n ?? 0) >= cap) return 'full'
  await tx.execute(
    list === 'keywords'
      ? sql`insert into blocked_keywords (user_id, keyword, pattern) values (${userId}, ${value}, ${wordsOf(sql`${value}::text`)})`
      : sql`insert into blocked_domains (user_id, domain) values (${userId}, ${value})`,
  )
  return 'added'
}

/** Removes a keyword or domain, compared case-insensitively; false when the member had none such. */
export async function removeBlocked(db: SqlExecutor, list: BlockList, userId: string, value: string): Promise<boolean> {
  const rows = await selectRows<{ user_id: string }>(
    db,
    sql`delete from ${tableOf[list]} where user_id = ${userId} and lower(${columnOf[list]}) = lower(${value})
        returning user_id`,
  )
  return rows.length > 0
}
