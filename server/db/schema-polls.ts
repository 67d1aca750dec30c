import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { uuidv7 } from './ids'
import { users } from './schema'
import { posts } from './schema-posts'

/**
 * Polls on posts (migration 0035; server/modules/polls, docs/product.md "Polls"): at most one per post, made with it
 * and never changed. `voters_count` and each option's `votes_count` are kept in the vote's transaction, under the
 * poll row's lock, so they are exact however many vote at once. `closed_notified_at` is set by the close job when it
 * tells the author, in the same transaction: a job run twice (two processes, a retry) finds it set and does nothing.
 */
export const polls = pgTable(
  'polls',
  {
    postId: uuid('post_id')
      .primaryKey()
      .references(() => posts.id, { onDelete: 'cascade' }),
    multiple: boolean('multiple').notNull().default(false),
    closesAt: timestamp('closes_at', { withTimezone: true }).notNull(),
    votersCount: integer('voters_count').notNull().default(0),
    closedNotifiedAt: timestamp('closed_notified_at', { withTimezone: true }),
  },
  (t) => [check('polls_voters_count_check', sql`${t.votersCount} >= 0`)],
)

/** A poll's 2 to 4 choices, in the author's order. */
export const pollOptions = pgTable(
  'poll_options',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    postId: uuid('post_id')
      .notNull()
      .references(() => polls.postId, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    text: text('text').notNull(),
    votesCount: integer('votes_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('poll_options_post_position').on(t.postId, t.position),
    check('poll_options_votes_count_check', sql`${t.votesCount} >= 0`),
  ],
)

/** Who chose what: one row per chosen option (a multiple-choice vote is several rows of one submission). */
export const pollVotes = pgTable(
  'poll_votes',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => polls.postId, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    optionId: uuid('option_id')
      .notNull()
      .references(() => pollOptions.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The viewer's own choices on a card, and "has this member voted".
    primaryKey({ name: 'poll_votes_pkey', columns: [t.postId, t.userId, t.optionId] }),
    // Deleting an account removes its votes.
    index('poll_votes_user_idx').on(t.userId),
  ],
)
