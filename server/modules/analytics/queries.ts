import { type SQL, sql } from 'drizzle-orm'
import { selectRows, type SqlExecutor, toDate } from '../../db/rows'

/**
 * A member's analytics, read from `post_daily_stats` (server/db/schema-analytics.ts) by (author_id, day) and from
 * `posts` by (author_id, created_at): index ranges over one member's rows, whatever the size of the network.
 *
 * A range of `days` days is today (UTC) and the days - 1 before it, whole UTC days.
 */

const today = sql`(now() at time zone 'UTC')::date`
/** The first day of the range. */
const firstDay = (days: number) => sql`(${today} - ${days - 1}::int)`
/** Midnight UTC starting the first day, to compare with posts' creation times. */
const rangeStart = (days: number) => sql`(${firstDay(days)}::timestamp at time zone 'UTC')`

export interface Totals {
  posts: number
  followers: number
  views: number
  likes: number
  replies: number
  reposts: number
}

/** Posts published in the range, followers now, and views, likes, replies, reposts received in the range. */
export async function memberTotals(db: SqlExecutor, authorId: string, days: number): Promise<Totals> {
  const [row] = await selectRows<Totals>(
    db,
    sql`select
          (select count(*)::int from posts where author_id = ${authorId} and created_at >= ${rangeStart(days)}) as posts,
          coalesce((select followers_count from users where id = ${authorId}), 0)::int as followers,
          coalesce(sum(s.views), 0)::int as views,
          coalesce(sum(s.likes), 0)::int as likes,
          coalesce(sum(s.replies), 0)::int as replies,
          coalesce(sum(s.reposts), 0)::int as reposts
        from post_daily_stats s
        where s.author_id = ${authorId} and s.day >= ${firstDay(days)}`,
  )
  return row ?? { posts: 0, followers: 0, views: 0, likes: 0, replies: 0, reposts: 0 }
}

export interface PostStatsRow {
  id: string
  content: string
  createdAt: string
  likes: number
  views: number
  replies: number
  reposts: number
}

interface RawPostStats {
  id: string
  content: string
  created_at: unknown
  likes: number
  views: number
  replies: number
  reposts: number
}

const toPostStats = (r: RawPostStats): PostStatsRow => ({
  id: r.id,
  content: r.content,
  createdAt: toDate(r.created_at).toISOString(),
  likes: r.likes,
  views: r.views,
  replies: r.replies,
  reposts: r.reposts,
})

/**
 * The member's `limit` posts with the most likes, replies and reposts received in the range (ties: more views, then
 * newer first), with those counts. Only posts that had anything in the range (a view at least) are ranked.
 */
export async function topPosts(db: SqlExecutor, authorId: string, days: number, limit: number): Promise<PostStatsRow[]> {
  const rows = await selectRows<RawPostStats>(
    db,
    sql`select p.id, p.content, p.created_at, s.likes, s.views, s.replies, s.reposts
        from (
          select post_id, sum(likes)::int as likes, sum(views)::int as views,
                 sum(replies)::int as replies, sum(reposts)::int as reposts
          from post_daily_stats
          where author_id = ${authorId} and day >= ${firstDay(days)}
          group by post_id
        ) s
        join posts p on p.id = s.post_id
        order by (s.likes + s.replies + s.reposts) desc, s.views desc, p.created_at desc, p.id desc
        limit ${limit}`,
  )
  return rows.map(toPostStats)
}

/** The member's `limit` newest posts published in the range, newest first, with what they received in it. */
export async function recentPosts(db: SqlExecutor, authorId: string, days: number, limit: number): Promise<PostStatsRow[]> {
  const rows = await selectRows<RawPostStats>(
    db,
    sql`select p.id, p.content, p.created_at,
               coalesce(sum(s.likes), 0)::int as likes, coalesce(sum(s.views), 0)::int as views,
               coalesce(sum(s.replies), 0)::int as replies, coalesce(sum(s.reposts), 0)::int as reposts
        from (
          select id, content, created_at from posts
          where author_id = ${authorId} and created_at >= ${rangeStart(days)}
          order by created_at desc, id desc
          limit ${limit}
        ) p
        left join post_daily_stats s on s.post_id = p.id and s.day >= ${firstDay(days)}
        group by p.id, p.content, p.created_at
        order by p.created_at desc, p.id desc`,
  )
  return rows.map(toPostStats)
}

export interface DayRow {
  date: string
  posts: number
  likes: number
  views: number
  replies: number
  reposts: number
}

/** Every day of the range, oldest first, zeros included. */
function daySeries(days: number, stats: SQL, published: SQL): SQL {
  return sql`select to_char(d.day, 'YYYY-MM-DD') as date,
                    coalesce(pb.posts, 0)::int as posts,
                    coalesce(st.likes, 0)::int as likes, coalesce(st.views, 0)::int as views,
                    coalesce(st.replies, 0)::int as replies, coalesce(st.reposts, 0)::int as reposts
             from (select (${firstDay(days)} + i)::date as day from generate_series(0, ${days - 1}::int) as i) d
             left join (${stats}) st on st.day = d.day
             left join (${published}) pb on pb.day = d.day
             order by d.day`
}

/** The member's posts published, and likes and views received, per day of the range. */
export async function memberDays(db: SqlExecutor, authorId: string, days: number): Promise<DayRow[]> {
  return selectRows<DayRow>(
    db,
    daySeries(
      days,
      sql`select day, sum(likes) as likes, sum(views) as views, sum(replies) as replies, sum(reposts) as reposts
          from post_daily_stats where author_id = ${authorId} and day >= ${firstDay(days)} group by day`,
      sql`select (created_at at time zone 'UTC')::date as day, count(*) as posts
          from posts where author_id = ${authorId} and created_at >= ${rangeStart(days)} group by 1`,
    ),
  )
}

/** One post's likes, views, replies and reposts per day of the range. */
export async function postDays(db: SqlExecutor, postId: string, days: number): Promise<DayRow[]> {
  return selectRows<DayRow>(
    db,
    daySeries(
      days,
      sql`select day, likes, views, replies, reposts
          from post_daily_stats where post_id = ${postId} and day >= ${firstDay(days)}`,
      sql`select null::date as day, 0 as posts where false`,
    ),
  )
}

/** The post's text and publication time. */
export async function postHeader(
  db: SqlExecutor,
  postId: string,
): Promise<{ id: string; content: string; createdAt: string } | undefined> {
  const [row] = await selectRows<{ id: string; content: string; created_at: unknown }>(
    db,
    sql`select id, content, created_at from posts where id = ${postId}`,
  )
  return row && { id: row.id, content: row.content, createdAt: toDate(row.created_at).toISOString() }
}
