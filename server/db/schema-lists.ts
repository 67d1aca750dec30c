import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { uuidv7 } from './ids'
import { users } from './schema'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

/**
 * Members' lists (docs/product.md, "Lists"): a name, a description, public or private, and two denormalised counters
 * so a list row costs one read. `member_count` and `subscriber_count` are kept by row triggers on list_members and
 * list_subscriptions (migration 0017), in the transaction that adds or removes the row, like hashtags.post_count:
 * the trigger's UPDATE takes the list's row lock, so concurrent adds are serialised on it and the count is exact,
 * and rows that go by cascade (a member's account deleted by hand, a block removing a member) are counted too.
 */
export const lists = pgTable(
  'lists',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isPrivate: boolean('is_private').notNull().default(false),
    memberCount: integer('member_count').notNull().default(0),
    subscriberCount: integer('subscriber_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    // The owner's lists, newest first, and its keyset.
    index('lists_owner_created_idx').on(t.ownerId, t.createdAt, t.id),
    check('lists_name_check', sql`char_length(${t.name}) between 1 and 50`),
    check('lists_description_check', sql`char_length(${t.description}) <= 200`),
    check('lists_counters_check', sql`${t.memberCount} >= 0 and ${t.subscriberCount} >= 0`),
  ],
)

/**
 * Who is on a list. The primary key (list, member) makes an add idempotent at the row level (a second is 409) and
 * is the timeline's source set (a prefix scan); created_at orders the members page, most recently added first.
 */
export const listMembers = pgTable(
  'list_members',
  {
    listId: uuid('list_id')
      .notNull()
      .references(() => lists.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.userId], name: 'list_members_pkey' }),
    // The members page, most recently added first, and its keyset.
    index('list_members_list_created_idx').on(t.listId, t.createdAt, t.userId),
    // A block removes the member from the other side's lists; a profile's "Add to list" reads the viewer's lists
    // holding the member.
    index('list_members_user_idx').on(t.userId),
  ],
)

/** Members following someone else's public list: it shows beside their own (GET /lists). */
export const listSubscriptions = pgTable(
  'list_subscriptions',
  {
    listId: uuid('list_id')
      .notNull()
      .references(() => lists.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.userId], name: 'list_subscriptions_pkey' }),
    // The subscriber's lists, most recent first, and its keyset.
    index('list_subscriptions_user_created_idx').on(t.userId, t.createdAt, t.listId),
  ],
)
