import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, cursorTime } from '../../lib/cursor'
import { separateInLists } from '../lists/queries'
import { lockPair, setFollow } from '../users/queries'
import { blockedBetween } from '../visibility/visibility'

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
