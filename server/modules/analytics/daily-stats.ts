import { type SQL, sql } from 'drizzle-orm'
import type { SqlExecutor } from '../../db/rows'

/**
 * The writes of `post_daily_stats` (server/db/schema-analytics.ts): per post and UTC day, views, likes, public
 * replies and reposts received. Called by the posts module where the thing happens, in the same transaction and
 * after the post's own row lock (a flush of views runs outside any transaction), so the lock order is always the
 * post's row, then its day's row: no statement here can deadlock with another.
 */

/** The UTC day of a timestamp expression. */
const utcDay = (at: SQL) => sql`((${at}) at time zone 'UTC')::date`

export type DailyCounter = 'likes' | 'reposts' | 'replies'

const column: Record<DailyCounter, SQL> = {
  likes: sql.raw('likes'),
  reposts: sql.raw('reposts'),
  replies: sql.raw('replies'),
}

/**
 * One more (delta 1) or one fewer (delta -1) like, repost or public reply of a post, on the UTC day of `at` (when
 * the like, repost or reply was made: an unlike takes its like off the day it was given).
 */
export async function countOnDay(
  db: SqlExecutor,
  counter: DailyCounter,
  postId: string,
  at: Date | 'now',
  delta: 1 | -1,
): Promise<void> {
  const day = utcDay(at === 'now' ? sql`now()` : sql`${at.toISOString()}::timestamptz`)
  const c = column[counter]
  if (delta > 0) {
    await db.execute(sql`
      insert into post_daily_stats (post_id, author_id, day, ${c})
      select id, author_id, ${day}, 1 from posts where id = ${postId}
      on conflict (post_id, day) do update set ${c} = post_daily_stats.${c} + 1`)
  } else {
    await db.execute(sql`
      update post_daily_stats set ${c} = greatest(0, ${c} - 1) where post_id = ${postId} and day = ${day}`)
  }
}

/** Takes a public reply, about to be deleted, off its parent's count for the day it was written. */
export async function uncountReply(db: SqlExecutor, replyId: string, parentId: string): Promise<void> {
  await db.execute(sql`
    update post_daily_stats s set replies = greatest(0, s.replies - 1)
    from posts c
    where c.id = ${replyId} and s.post_id = ${parentId} and s.day = ${utcDay(sql`c.created_at`)}`)
}

/** Adds a batch of views (post id -> views) to today's row of each post, in one statement. */
export async function addDailyViews(db: SqlExecutor, counts: ReadonlyMap<string, number>): Promise<void> {
  if (counts.size === 0) return
  const values = sql.join(
    [...counts].map(([id, n]) => sql`(${id}::uuid, ${n}::int)`),
    sql`, `,
  )
  await db.execute(sql`
    insert into post_daily_stats (post_id, author_id, day, views)
    select p.id, p.author_id, ${utcDay(sql`now()`)}, v.n
    from (values ${values}) as v(id, n) join posts p on p.id = v.id
    order by p.id
    on conflict (post_id, day) do update set views = post_daily_stats.views + excluded.views`)
}

/** A batch's net change to one post's likes and reposts on one day: `madeAt` null is today. */
export interface DailyReactionChange {
  postId: string
  madeAt: string | null
  likes: number
  reposts: number
}

/**
 * Adds a batch of like and repost changes to their days' rows in one statement (server/modules/posts/reactions.ts,
 * after the posts' row locks): rows that exist are updated, days with more given than taken get a row. A day that
 * only loses likes and has no row stays without one, as `countOnDay` does.
 */
export async function addDailyReactions(db: SqlExecutor, changes: readonly DailyReactionChange[]): Promise<void> {
  if (changes.length === 0) return
  const values = sql.join(
    changes.map((c) => sql`(${c.postId}::uuid, ${c.madeAt}::timestamptz, ${c.likes}::int, ${c.reposts}::int)`),
    sql`, `,
  )
  await db.execute(sql`
    with v(post_id, made_at, likes, reposts) as (values ${values}),
    d as (
      select post_id, ${utcDay(sql`coalesce(made_at, now())`)} as day, sum(likes)::int as likes, sum(reposts)::int as reposts
      from v group by 1, 2
    ),
    updated as (
      update post_daily_stats s
      set likes = greatest(0, s.likes + d.likes), reposts = greatest(0, s.reposts + d.reposts)
      from d where s.post_id = d.post_id and s.day = d.day
      returning s.post_id, s.day
    )
    insert into post_daily_stats (post_id, author_id, day, likes, reposts)
    select p.id, p.author_id, d.day, greatest(0, d.likes), greatest(0, d.reposts)
    from d join posts p on p.id = d.post_id
    where (d.likes > 0 or d.reposts > 0)
      and not exists (select 1 from updated u where u.post_id = d.post_id and u.day = d.day)
    order by p.id, d.day
    on conflict (post_id, day) do update
      set likes = post_daily_stats.likes + excluded.likes, reposts = post_daily_stats.reposts + excluded.reposts`)
}
