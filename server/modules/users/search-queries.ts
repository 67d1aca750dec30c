import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { selectPrepared } from '../../db/prepared'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, micros } from '../../lib/cursor'
import { likeLiteral } from '../../lib/like'
import { blockedBetween } from '../visibility/visibility'

// Member search (GET /users/search) and the "Who to Follow" suggestions. A member matches when their username starts
// with the query or their display name contains it, in any case. Order: the exact username first, then usernames or
// display names that start with the query, then display names that only contain it; within each, members the viewer
// follows first, then the most followed. Members behind a block with the viewer, either way, are never listed.

export interface UserSearchRow {
  id: string
  username: string
  display_name: string
  avatar: string | null
  verified: boolean
  bio: string
  is_following: boolean
  /** The row's place in the order as one number, the keyset cursor's `at`: the page goes on after (order, id). */
  at: string
}

const following = (viewerId: string) =>
  sql`exists (select 1 from follows v where v.follower_id = ${viewerId} and v.followee_id = u.id)`

const columns = (viewerId: string) => sql`u.id, u.username, u.display_name, u.avatar, u.verified, u.bio,
  ${following(viewerId)} as is_following`

/** Followers counts stay below this (PostgreSQL's integer), so the order fits one bigint: see `orderKey`. */
export const FOLLOWERS_SPAN = 10_000_000_000

/**
 * The order as one bigint, smallest first: ((rank * 2 + not-followed) * span) + (span - 1 - followers). One number
 * makes the keyset cursor a plain (key, id) comparison, as every other list's (time, id) is.
 */
function orderKey(viewerId: string, needle: string): SQL {
  const span = sql.raw(String(FOLLOWERS_SPAN))
  return sql`((${rankOf(needle)} * 2 + (case when ${following(viewerId)} then 0 else 1 end))::bigint * ${span}
    + (${span} - 1 - u.followers_count))`
}

export async function searchUserPage(
  db: SqlExecutor,
  viewerId: string,
  needle: string,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<UserSearchRow[]> {
  const key = orderKey(viewerId, needle)
  const rows = await selectRows<Omit<UserSearchRow, 'at'> & { key: string | bigint }>(
    db,
    sql`select * from (
          select ${columns(viewerId)}, ${key} as key
          from users u
          where ${matches(needle)} and u.deleted_at is null
            and not ${blockedBetween(viewerId, sql`u.id`)}
        ) found
        ${cursor ? sql`where (found.key, found.id) > (${cursor.at}::bigint, ${cursor.id}::uuid)` : sql``}
        order by found.key, found.id
        offset ${offset} limit ${limit}`,
  )
  return rows.map(({ key, ...row }) => ({ ...row, at: String(key) }))
}

/** How far "friends of friends" looks: the viewer's latest followees, and the latest follows of each. */
const FOF_FOLLOWEES = 100
const FOF_FOLLOWS_EACH = 100
/**
 * Beside friends of friends, the candidates are this many of the most followed members (users_followers_count_idx),
 * not every member: ordering all 20,000 members of the bench by "posted lately" cost 620 ms a request (bench/README.md,
 * "Search"). Those the viewer follows, muted or blocked are left out afterwards, so the pool is wide.
 */
const POPULAR_POOL = 500
/** A member counts as active when they posted within this many days. */
const ACTIVE_DAYS = 30

/**
 * Who to follow: friends of friends first (members followed by the people the viewer follows, the more of them the
 * better), then, for a viewer who follows nobody yet or to fill the list, popular members (the POPULAR_POOL most
 * followed) who posted lately. Never the
 * viewer, anyone they follow or asked to follow, muted, or across a block either way. The look-around is bounded
 * (latest 100 followees, latest 100 follows each) so it costs the same for a member following thousands.
 */
export async function suggestedUsers(db: SqlExecutor, viewerId: string, limit: number): Promise<UserSearchRow[]> {
  return selectRows<UserSearchRow>(
    db,
    sql`with followees as (
          select followee_id as id from follows where follower_id = ${viewerId}
          order by created_at desc limit ${FOF_FOLLOWEES}
        ),
        friends_of_friends as (
          select theirs.followee_id as id, count(*)::int as friends
          from followees f
          cross join lateral (
            select followee_id from follows where follower_id = f.id order by created_at desc limit ${FOF_FOLLOWS_EACH}
          ) theirs
          group by theirs.followee_id
        ),
        popular as (
          select pu.id from users pu order by pu.followers_count desc, pu.id desc limit ${POPULAR_POOL}
        ),
        candidates as (
          select id from friends_of_friends union select id from popular
        )
        select ${columns(viewerId)}, '0' as at
        from candidates c
        join users u on u.id = c.id
        left join friends_of_friends fof on fof.id = u.id
        where u.id <> ${viewerId} and u.deleted_at is null
          and not exists (select 1 from follows f where f.follower_id = ${viewerId} and f.followee_id = u.id)
          and not exists (select 1 from follow_requests q where q.requester_id = ${viewerId} and q.target_id = u.id)
          and not exists (select 1 from user_mutes m where m.muter_id = ${viewerId} and m.muted_id = u.id)
          and not ${blockedBetween(viewerId, sql`u.id`)}
        order by coalesce(fof.friends, 0) desc,
          exists (select 1 from posts p where p.author_id = u.id
                    and p.created_at > now() - ${`${ACTIVE_DAYS} days`}::interval) desc,
          u.followers_count desc, u.id
        limit ${limit}`,
  )
}

// The cached path (search-results.ts): who matches a search, for anyone, then each viewer's order and rules. The
// per-request statements are named (prepared once per connection): planning them cost as much as running them.

/** A member matching a search, without the viewer: the match's rank (0 exact, 1 starts with, 2 contains). */
export interface MemberMatch {
  id: string
  rank: number
  followers: number
}

export interface MemberMatchSet {
  items: MemberMatch[]
  /** When they were read, in database microseconds: members changed from then on are read fresh. */
  builtAt: string
}

function matches(needle: string): SQL {
  return sql`(lower(u.username) like ${`${likeLiteral(needle)}%`} or lower(u.display_name) like ${`%${likeLiteral(needle)}%`})`
}

function rankOf(needle: string): SQL {
  const prefix = `${likeLiteral(needle)}%`
  return sql`(case when lower(u.username) = ${needle} then 0
    when lower(u.username) like ${prefix} or lower(u.display_name) like ${prefix} then 1 else 2 end)`
}

/** Every member matching `needle`, with their rank and followers count, and the database's clock. */
export async function memberMatches(db: SqlExecutor, needle: string): Promise<MemberMatchSet> {
  const [row] = await selectRows<{ built: string; items: Array<[string, number, number]> }>(
    db,
    sql`select ${micros(sql`now()`)} as built,
          coalesce((select json_agg(json_build_array(u.id, ${rankOf(needle)}, u.followers_count))
            from users u where ${matches(needle)}), '[]'::json) as items`,
  )
  return {
    builtAt: row?.built ?? '0',
    items: (row?.items ?? []).map(([id, rank, followers]) => ({ id, rank, followers })),
  }
}

/** Members who joined or changed their profile since `since`, and whether they match `needle` now. */
export async function membersChangedSince(
  db: Database,
  needle: string,
  since: string,
): Promise<Array<MemberMatch & { matches: boolean }>> {
  return selectPrepared(
    db,
    'member_search_changed_v1',
    sql`select u.id, ${rankOf(needle)} as rank, u.followers_count as followers, ${matches(needle)} as matches
        from users u where u.updated_at >= (timestamptz 'epoch' + ${since}::bigint * interval '1 microsecond')`,
  )
}

/** Whom the viewer follows. */
export async function followeeIds(db: Database, viewerId: string): Promise<string[]> {
  const rows = await selectPrepared<{ id: string }>(
    db,
    'member_search_followees_v1',
    sql`select followee_id as id from follows where follower_id = ${viewerId}`,
  )
  return rows.map((r) => r.id)
}

const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`

/** Of `ids`, the members the viewer may find by `needle` now (still matching, no block either way), as rows. */
export async function memberRows(
  db: Database,
  viewerId: string,
  needle: string,
  ids: readonly string[],
): Promise<Array<Omit<UserSearchRow, 'at'>>> {
  if (ids.length === 0) return []
  return selectPrepared(
    db,
    'member_search_rows_v1',
    // `offset 0`: the match stays a filter on these few rows, never ANDed with the trigram index's bitmap.
    sql`select ${columns(viewerId)} from (select * from users where id = any(${uuidArray(ids)}) offset 0) u
        where ${matches(needle)} and u.deleted_at is null and not ${blockedBetween(viewerId, sql`u.id`)}`,
  )
}

/** Of suggested `ids`, those still to suggest now (as `suggestedUsers` leaves out), as rows. */
export async function suggestionRows(
  db: Database,
  viewerId: string,
  ids: readonly string[],
): Promise<UserSearchRow[]> {
  if (ids.length === 0) return []
  return selectPrepared(
    db,
    'member_suggestion_rows_v1',
    sql`select ${columns(viewerId)}, '0' as at from users u
        where u.id = any(${uuidArray(ids)}) and u.id <> ${viewerId} and u.deleted_at is null
          and not exists (select 1 from follows f where f.follower_id = ${viewerId} and f.followee_id = u.id)
          and not exists (select 1 from follow_requests q where q.requester_id = ${viewerId} and q.target_id = u.id)
          and not exists (select 1 from user_mutes m where m.muter_id = ${viewerId} and m.muted_id = u.id)
          and not ${blockedBetween(viewerId, sql`u.id`)}`,
  )
}
