import { sql } from 'drizzle-orm'
import { check, index, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './schema'

/**
 * Who follows whom. The primary key (follower, followee) makes follow idempotent and concurrent follows exact (the
 * counters on users change only when a row really appears or disappears); it also serves "does the viewer follow
 * X" and the list of a member's followees that the feed starts from.
 */
export const follows = pgTable(
  'follows',
  {
    followerId: uuid('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followeeId: uuid('followee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'follows_pkey', columns: [t.followerId, t.followeeId] }),
    check('follows_not_self_check', sql`${t.followerId} <> ${t.followeeId}`),
    // Followers list (most recent follow first) and the reverse lookups of a cascade.
    index('follows_followee_created_idx').on(t.followeeId, t.createdAt, t.followerId),
    // Following list, most recent follow first.
    index('follows_follower_created_idx').on(t.followerId, t.createdAt, t.followeeId),
  ],
)

export type FollowRow = typeof follows.$inferSelect
