import { sql } from 'drizzle-orm'
import { check, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
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

/**
 * Who blocked whom (docs/product.md, "Blocks"). A block is a two-way wall: the visibility predicate
 * (visibility/visibility.ts) probes it in both directions, through the primary key (blocker, blocked) and the reverse
 * index (blocked, blocker). Also serves the blocker's list, most recent first.
 */
export const userBlocks = pgTable(
  'user_blocks',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'user_blocks_pkey', columns: [t.blockerId, t.blockedId] }),
    check('user_blocks_not_self_check', sql`${t.blockerId} <> ${t.blockedId}`),
    index('user_blocks_blocked_blocker_idx').on(t.blockedId, t.blockerId),
    index('user_blocks_blocker_created_idx').on(t.blockerId, t.createdAt, t.blockedId),
  ],
)

/**
 * Keywords a member blocked: stored trimmed as typed, unique per member case-insensitively. `pattern` is the
 * keyword's words, lowercased, single-spaced and framed by spaces (` spoilers ahead `), made by the database with
 * the same expression that the feed filter applies to post text (visibility/visibility.ts, `listedFor`), so a keyword
 * matches whole words or phrases only.
 */
export const blockedKeywords = pgTable(
  'blocked_keywords',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyword: text('keyword').notNull(),
    pattern: text('pattern').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('blocked_keywords_user_lower_idx').on(t.userId, sql`lower(${t.keyword})`)],
)

/** Domains a member blocked, stored lowercased. */
export const blockedDomains = pgTable(
  'blocked_domains',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'blocked_domains_pkey', columns: [t.userId, t.domain] })],
)

/**
 * Who muted whom (docs/product.md, "Mutes"). One-way and silent: only the muter's home feed reads it, as one set of
 * muted ids built once per statement from the primary key's prefix (visibility/visibility.ts, `feedListedFor`). The
 * created index serves the muter's list, most recent first; the muted member's index serves the cascade when they
 * leave.
 */
export const userMutes = pgTable(
  'user_mutes',
  {
    muterId: uuid('muter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mutedId: uuid('muted_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'user_mutes_pkey', columns: [t.muterId, t.mutedId] }),
    check('user_mutes_not_self_check', sql`${t.muterId} <> ${t.mutedId}`),
    index('user_mutes_muted_idx').on(t.mutedId),
    index('user_mutes_muter_created_idx').on(t.muterId, t.createdAt, t.mutedId),
  ],
)

/**
 * Keywords a member muted: like blocked_keywords (same trimming, same case-insensitive uniqueness, same `pattern`
 * made by the database from the words of the keyword), plus an id the contract gives each mute.
 */
export const mutedKeywords = pgTable(
  'muted_keywords',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyword: text('keyword').notNull(),
    pattern: text('pattern').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('muted_keywords_user_lower_idx').on(t.userId, sql`lower(${t.keyword})`)],
)

/** Domains a member muted, stored lowercased, like blocked_domains plus an id. */
export const mutedDomains = pgTable(
  'muted_domains',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('muted_domains_user_domain_idx').on(t.userId, t.domain)],
)

/**
 * Pending follow requests to private accounts (docs/product.md, "Private accounts and follow requests"). The primary
 * key (requester, target) makes a request idempotent; the target's index serves their incoming list, most recent
 * first, and the moves of "turn private off" (every request to the member approved at once).
 */
export const followRequests = pgTable(
  'follow_requests',
  {
    requesterId: uuid('requester_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetId: uuid('target_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'follow_requests_pkey', columns: [t.requesterId, t.targetId] }),
    check('follow_requests_not_self_check', sql`${t.requesterId} <> ${t.targetId}`),
    index('follow_requests_target_created_idx').on(t.targetId, t.createdAt, t.requesterId),
  ],
)
