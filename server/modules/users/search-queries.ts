import { sql, type SQL } from 'drizzle-orm'
import { selectRows, type SqlExecutor } from '../../db/rows'
import type { Cursor } from '../../lib/cursor'
import { blockedBetween } from '../posts/visibility'

// Member search (GET /users/search) and the "Who to Follow" suggestions. Matching is a case-insensitive substring of
// the username or the display name; the better matches come first (the exact username, then usernames and display
// names that start with the query, then the rest), each group in username order. Members behind a block with the
// viewer, either way, are never listed.

export interface UserSearchRow {
  id: string
  username: string
  display_name: string
  avatar: string | null
  verified: boolean
  bio: string
  is_following: boolean
  /** The match's rank (0 best), as the keyset cursor's `at`: the page goes on after (rank, username). */
  at: string
}

/** LIKE's wildcards and its escape character, taken literally: a search for "50%" finds "50%", not "50". */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

const columns = (viewerId: string) => sql`u.id, u.username, u.display_name, u.avatar, u.verified, u.bio,
  exists (select 1 from follows v where v.follower_id = ${viewerId} and v.followee_id = u.id) as is_following`

/** 0: the username is the query; 1: the username starts with it; 2: the display name does; 3: either contains it. */
function rank(needle: string): SQL {
  const prefix = `${likeLiteral(needle)}%`
  return sql`(case when lower(u.username) = ${needle} then 0
    when lower(u.username) like ${prefix} then 1
    when lower(u.display_name) like ${prefix} then 2 else 3 end)`
}

export async function searchUserPage(
  db: SqlExecutor,
  viewerId: string,
  needle: string,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<UserSearchRow[]> {
  const contains = `%${likeLiteral(needle)}%`
  const after = cursor
    ? sql`and (${rank(needle)}, lower(u.username)) > (${Number(cursor.at)}, (select lower(c.username) from users c where c.id = ${cursor.id}))`
    : sql``
  return selectRows<UserSearchRow>(
    db,
    sql`select ${columns(viewerId)}, ${rank(needle)}::text as at
        from users u
        where (lower(u.username) like ${contains} or lower(u.display_name) like ${contains})
          and not ${blockedBetween(viewerId, sql`u.id`)}
          ${after}
        order by ${rank(needle)}, lower(u.username)
        offset ${offset} limit ${limit}`,
  )
}

/**
 * Who to follow: members the viewer neither follows nor has asked to follow, nor blocks or is blocked by, nor mutes;
 * the most followed first (a new member's best start), then the newest.
 */
export async function suggestedUsers(db: SqlExecutor, viewerId: string, limit: number): Promise<UserSearchRow[]> {
  return selectRows<UserSearchRow>(
    db,
    sql`select ${columns(viewerId)}, '0' as at
        from users u
        where u.id <> ${viewerId}
          and not exists (select 1 from follows f where f.follower_id = ${viewerId} and f.followee_id = u.id)
          and not exists (select 1 from follow_requests q where q.requester_id = ${viewerId} and q.target_id = u.id)
          and not exists (select 1 from user_mutes m where m.muter_id = ${viewerId} and m.muted_id = u.id)
          and not ${blockedBetween(viewerId, sql`u.id`)}
        order by u.followers_count desc, u.created_at desc, u.id
        limit ${limit}`,
  )
}
