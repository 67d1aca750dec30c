import { sql } from 'drizzle-orm'
import { check, date, index, integer, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core'
import { posts } from './schema-posts'

/**
 * Per post and per day (UTC), what happened to it: views, likes, public replies and reposts received that day. The
 * analytics calls (server/modules/analytics) read only this table and `posts`, one member's rows by
 * (author_id, day), so a dashboard costs an index range whatever the member's history.
 *
 * Who writes it (server/modules/analytics/daily-stats.ts holds the statements):
 * - views: the batched view flush (posts/views.ts), in its own statement after `posts.view_count`, never on a read;
 * - likes and reposts: a batch of flips (server/modules/posts/reactions.ts), in the flips' transaction, on the day the
 *   like row was made (an unlike takes one off that day), after the posts' row locks, so the counts stay exact under
 *   concurrency;
 * - replies: `insertPost` and `deleteThread` for a public reply, after the parent's row lock (the same replies the
 *   card's public reply count counts).
 * Rows go with their post (cascade). `rebuild_post_daily_stats()` (migration `analytics`) recomputes the table from
 * likes, reposts and replies (views of a post land on its first day): the migration and the seed call it.
 */
export const postDailyStats = pgTable(
  'post_daily_stats',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    // The post's author, copied (it never changes): a member's analytics read their rows without a join. No foreign
    // key of its own: the post's already removes the row with the post (and a member's posts go with the member), and
    // a second check per row doubled the time of a rebuild.
    authorId: uuid('author_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    views: integer('views').notNull().default(0),
    likes: integer('likes').notNull().default(0),
    replies: integer('replies').notNull().default(0),
    reposts: integer('reposts').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'post_daily_stats_pkey', columns: [t.postId, t.day] }),
    index('post_daily_stats_author_day_idx').on(t.authorId, t.day),
    check(
      'post_daily_stats_counters_check',
      sql`${t.views} >= 0 and ${t.likes} >= 0 and ${t.replies} >= 0 and ${t.reposts} >= 0`,
    ),
  ],
)

export type PostDailyStatsRow = typeof postDailyStats.$inferSelect
