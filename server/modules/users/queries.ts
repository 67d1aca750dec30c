import { eq, sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Audience, users, type UserRow } from '../../db/schema'
import type { Cursor } from '../../lib/cursor'
import { cursorTime } from '../../lib/cursor'
import { blockedBetween, visibleToAlias } from '../visibility/visibility'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function findUserByUsername(db: Database, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username}) and ${users.deletedAt} is null`)
    .limit(1)
  return row
}

/** A profile's header as one viewer sees it: the member and where the viewer stands with them. */
export interface ProfileHead {
  user: UserRow
  /** A block either way between the viewer and the member (then the profile is absent to the viewer). */
  blocked: boolean
  following: boolean
  requested: boolean
  muted: boolean
  /** The member's posts the viewer may not see (non-public ones): `visiblePostCount` subtracts them. */
  hidden: number
}

/**
 * The member named `username` and, in the same statement, what `findUserByUsername`, `isBlockedBetween`,
 * `isFollowing`, `hasFollowRequest`, `isMuting` and `visiblePostCount` read for a profile: one round trip and one
 * snapshot instead of six statements. Same predicates, so the same answers.
 */
const profileUserId = sql.raw('"users"."id"')

export async function findProfileHead(db: Database, viewerId: string, username: string): Promise<ProfileHead | undefined> {
  // Qualified by hand: drizzle writes a one-table select's columns bare, and a bare "id" inside a subquery on posts
  // would be the post's.
  const [row] = await db
    .select({
      user: users,
      blocked: sql<boolean>`${blockedBetween(viewerId, profileUserId)}`,
      following: sql<boolean>`exists (select 1 from follows ph_f
        where ph_f.follower_id = ${viewerId} and ph_f.followee_id = ${profileUserId})`,
      requested: sql<boolean>`exists (select 1 from follow_requests ph_r
        where ph_r.requester_id = ${viewerId} and ph_r.target_id = ${profileUserId})`,
      muted: sql<boolean>`exists (select 1 from user_mutes ph_m
        where ph_m.muter_id = ${viewerId} and ph_m.muted_id = ${profileUserId})`,
      hidden: sql<number>`(case when ${profileUserId} = ${viewerId} then 0 else (select count(*)::int from posts p
        where p.author_id = ${profileUserId} and p.visibility <> 'public' and not ${visibleToAlias(viewerId, 'p')}) end)`,
    })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username}) and ${users.deletedAt} is null`)
    .limit(1)
  return row
}

/** The posts count a viewer sees on a profile, from its head: the stored count less the posts hidden from them. */
export function visiblePostCountOf(head: ProfileHead, viewerId: string): number {
  return head.user.id === viewerId ? head.user.postsCount : Math.max(0, head.user.postsCount - head.hidden)
}

export async function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  if (!UUID.test(id)) return undefined
  // A member being deleted is no one to follow, block or message (their account is going).
  const [row] = await db.select().from(users).where(sql`${users.id} = ${id} and ${users.deletedAt} is null`).limit(1)
  return row
}

export async function isFollowing(db: SqlExecutor, followerId: string, followeeId: string): Promise<boolean> {
  const rows = await selectRows<{ one: number }>(
    db,
    sql`select 1 as one from follows where follower_id = ${followerId} and followee_id = ${followeeId}`,
  )
  return rows.length > 0
}

/**
 * How many of the member's posts the viewer may see: all of them for the member themself, otherwise the stored count
 * minus the non-public posts the viewer may not see (a partial index keeps that to the author's non-public posts),
 * so a count never reveals a post that is hidden from the viewer.
 */
export async function visiblePostCount(db: SqlExecutor, user: UserRow, viewerId: string): Promise<number> {
  if (user.id === viewerId) return user.postsCount
  const [row] = await selectRows<{ hidden: number }>(
    db,
    sql`select count(*)::int as hidden from posts p
        where p.author_id = ${user.id} and p.visibility <> 'public' and not ${visibleToAlias(viewerId, 'p')}`,
  )
  return Math.max(0, user.postsCount - (row?.hidden ?? 0))
}

// ---- follows ----------------------------------------------------------------------------------------------------

/**
 * Locks two members' rows in id order (inside a transaction), before a follow or a block between them: a follow and
 * a block of the same pair then run one after the other, so a follow can never slip in behind a block that has just
 * removed the follows. Same mode and order as setFollow's counter updates, so nothing upgrades or deadlocks.
 */
export async function lockPair(tx: SqlExecutor, a: string, b: string): Promise<void> {
  await tx.execute(sql`select id from users where id in (${a}, ${b}) order by id for no key update`)
}

/**
 * Adds or removes a follow and moves both members' counters in the same transaction, only when a row really appeared
 * or disappeared: the primary key decides, so concurrent and repeated calls count exactly once. The two users rows
 * are updated in id order, so two members following each other at the same moment cannot deadlock.
 * Returns the followee's followers count afterwards.
 */
export async function setFollow(tx: Database, followerId: string, followeeId: string, follow: boolean): Promise<number> {
  const changed = follow
    ? await selectRows<{ followee_id: string }>(
        tx,
        sql`insert into follows (follower_id, followee_id) values (${followerId}, ${followeeId})
            on conflict do nothing returning followee_id`,
      )
    : await selectRows<{ followee_id: string }>(
        tx,
        sql`delete from follows where follower_id = ${followerId} and followee_id = ${followeeId} returning followee_id`,
      )
  const delta = changed.length === 0 ? 0 : follow ? 1 : -1
  if (delta !== 0) {
    const updates: Array<[string, SQL]> = [
      [followerId, sql`following_count = greatest(0, following_count + ${delta})`],
      [followeeId, sql`followers_count = greatest(0, followers_count + ${delta})`],
    ]
    updates.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    for (const [id, set] of updates) await tx.execute(sql`update users set ${set} where id = ${id}`)
  }
  const [row] = await selectRows<{ followers_count: number }>(
    tx,
    sql`select followers_count from users where id = ${followeeId}`,
  )
  return row?.followers_count ?? 0
}

export interface FollowEntryRow {
  id: string
  username: string
  display_name: string
  avatar: string | null
  verified: boolean
  private_account: boolean
  is_following: boolean
  requested: boolean
  at: string
}

/**
 * One page of a member's followers (`followers`) or followees (`following`), most recent follow first, each with
 * whether the viewer follows that member, leaving out members behind a block with the viewer (either way). Keyset
 * on (follow time, member id).
 */
export async function followPage(
  db: SqlExecutor,
  direction: 'followers' | 'following',
  userId: string,
  viewerId: string,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<FollowEntryRow[]> {
  // followers: rows where the member is followed, listing the follower; following: the other way round.
  const [fixed, listed] = direction === 'followers' ? ['followee_id', 'follower_id'] : ['follower_id', 'followee_id']
  const listedColumn = sql.raw(`f.${listed}`)
  return selectRows<FollowEntryRow>(
    db,
    sql`select u.id, u.username, u.display_name, u.avatar, u.verified, u.private_account,
          exists (select 1 from follows v where v.follower_id = ${viewerId} and v.followee_id = u.id) as is_following,
          exists (select 1 from follow_requests q where q.requester_id = ${viewerId} and q.target_id = u.id) as requested,
          ((extract(epoch from f.created_at) * 1000000)::bigint)::text as at
        from follows f join users u on u.id = ${listedColumn}
        where ${sql.raw(`f.${fixed}`)} = ${userId}
          and (u.id = ${viewerId} or not ${blockedBetween(viewerId, sql`u.id`)})
          ${cursor ? sql`and (f.created_at, ${listedColumn}) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by f.created_at desc, ${listedColumn} desc
        offset ${offset} limit ${limit}`,
  )
}

// ---- follow requests (docs/product.md, "Private accounts and follow requests") -----------------------------------

export async function hasFollowRequest(db: SqlExecutor, requesterId: string, targetId: string): Promise<boolean> {
  const rows = await selectRows<{ one: number }>(
    db,
    sql`select 1 as one from follow_requests where requester_id = ${requesterId} and target_id = ${targetId}`,
  )
  return rows.length > 0
}

/** Whether the member's account is private, read inside the caller's transaction (after lockPair: fresh). */
export async function isPrivateAccount(db: SqlExecutor, userId: string): Promise<boolean> {
  const [row] = await selectRows<{ private_account: boolean }>(
    db,
    sql`select private_account from users where id = ${userId}`,
  )
  return row?.private_account === true
}

export async function followersCount(db: SqlExecutor, userId: string): Promise<number> {
  const [row] = await selectRows<{ followers_count: number }>(
    db,
    sql`select followers_count from users where id = ${userId}`,
  )
  return row?.followers_count ?? 0
}

/** Idempotent: the primary key keeps one request per pair. */
export async function addFollowRequest(db: SqlExecutor, requesterId: string, targetId: string): Promise<void> {
  await db.execute(
    sql`insert into follow_requests (requester_id, target_id) values (${requesterId}, ${targetId}) on conflict do nothing`,
  )
}

/** Deletes the pending request; true when there was one. */
export async function removeFollowRequest(db: SqlExecutor, requesterId: string, targetId: string): Promise<boolean> {
  const rows = await selectRows<{ requester_id: string }>(
    db,
    sql`delete from follow_requests where requester_id = ${requesterId} and target_id = ${targetId}
        returning requester_id`,
  )
  return rows.length > 0
}

/**
 * Turns every pending request to the member into a follow, counters exact, in the caller's transaction. Takes the
 * member's and every requester's row lock in id order first (the order lockPair uses), so a request, cancel or
 * approval of the same pairs at the same moment waits for this one instead of deadlocking. Returns the requesters.
 */
export async function approveAllFollowRequests(tx: Database, targetId: string): Promise<string[]> {
  await tx.execute(
    sql`select id from users where id = ${targetId}
          or id in (select requester_id from follow_requests where target_id = ${targetId})
        order by id for no key update`,
  )
  const moved = await selectRows<{ requester_id: string }>(
    tx,
    sql`delete from follow_requests where target_id = ${targetId} returning requester_id`,
  )
  moved.sort((a, b) => (a.requester_id < b.requester_id ? -1 : a.requester_id > b.requester_id ? 1 : 0))
  for (const { requester_id } of moved) await setFollow(tx, requester_id, targetId, true)
  return moved.map((r) => r.requester_id)
}

export interface FollowRequestRow {
  id: string
  username: string
  display_name: string
  avatar: string | null
  verified: boolean
  created_at: string | Date
  at: string
}

/** One page of the member's pending incoming requests, most recent first, without members behind a block. */
export async function followRequestPage(
  db: SqlExecutor,
  targetId: string,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<FollowRequestRow[]> {
  return selectRows<FollowRequestRow>(
    db,
    sql`select u.id, u.username, u.display_name, u.avatar, u.verified, r.created_at,
          ((extract(epoch from r.created_at) * 1000000)::bigint)::text as at
        from follow_requests r join users u on u.id = r.requester_id
        where r.target_id = ${targetId} and not ${blockedBetween(targetId, sql`u.id`)}
          ${cursor ? sql`and (r.created_at, r.requester_id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by r.created_at desc, r.requester_id desc
        offset ${offset} limit ${limit}`,
  )
}

// ---- own profile ------------------------------------------------------------------------------------------------

export interface ProfileChanges {
  displayName?: string
  bio?: string
  privateAccount?: boolean
  showSensitiveContent?: boolean
  allowDms?: Audience
  allowMentions?: Audience
}

export async function updateUser(db: Database, userId: string, changes: ProfileChanges): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning()
  if (!row) throw new Error(`user ${userId} vanished while being updated`)
  return row
}

/**
 * Points the avatar or banner at a new image and returns the previous URL (whose file the caller deletes once this
 * has committed). The row lock makes two uploads at once each see the other's image as "previous", so no file is
 * orphaned.
 */
export async function replaceImage(
  db: Database,
  userId: string,
  column: 'avatar' | 'banner',
  url: string,
): Promise<{ user: UserRow; previous: string | null }> {
  return db.transaction(async (tx) => {
    const [current] = await selectRows<{ previous: string | null }>(
      tx,
      sql`select ${sql.raw(column)} as previous from users where id = ${userId} for update`,
    )
    const [user] = await tx
      .update(users)
      .set({ [column]: url, updatedAt: sql`now()` })
      .where(eq(users.id, userId))
      .returning()
    if (!user) throw new Error(`user ${userId} vanished while its ${column} was replaced`)
    return { user, previous: current?.previous ?? null }
  })
}
