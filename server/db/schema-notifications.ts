import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { uuidv7 } from './ids'
import { users } from './schema'
import { posts } from './schema-posts'
import { reports } from './schema-reports'

/** What happened (the contract's Notification.type). */
export const notificationKinds = [
  'like',
  'repost',
  'reply',
  'mention',
  'follow',
  'follow_request',
  'follow_accepted',
  'report',
  'export_ready',
  'quote',
  'poll_closed',
] as const
export type NotificationKind = (typeof notificationKinds)[number]

/**
 * A member's notifications, one row per *item* they see (docs/product.md, "Notifications"). Likes and reposts of one
 * post share a row ("Ana and 19 others liked your post"): `group_key` names the item, `latest_actor_id` and
 * `actor_count` say who and how many, kept exact from notification_actors in the transaction of the like itself. A
 * new like of an item already read makes it unread again and brings it to the top (`updated_at`, the sort key).
 * `post_id` is the post concerned (the liked post; the reply or mention itself): deleting it deletes the item.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NotificationKind>().notNull(),
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'cascade' }),
    // Only for `report`: the recipient's report whose status an admin changed.
    reportId: uuid('report_id').references(() => reports.id, { onDelete: 'cascade' }),
    groupKey: text('group_key').notNull(),
    latestActorId: uuid('latest_actor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actorCount: integer('actor_count').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_recipient_group_key').on(t.recipientId, t.groupKey),
    // The list, newest first, and its keyset.
    index('notifications_recipient_updated_idx').on(t.recipientId, t.updatedAt, t.id),
    // The unread count and the Unread tab.
    index('notifications_recipient_unread_idx').on(t.recipientId, t.updatedAt).where(sql`${t.readAt} is null`),
    index('notifications_post_idx').on(t.postId).where(sql`${t.postId} is not null`),
    check(
      'notifications_kind_check',
      sql`${t.kind} in ('like', 'repost', 'reply', 'mention', 'follow', 'follow_request', 'follow_accepted', 'report', 'export_ready', 'quote', 'poll_closed')`,
    ),
    check('notifications_actor_count_check', sql`${t.actorCount} >= 1`),
  ],
)

/** Everyone behind an item: undoing a like removes its actor here, and the item goes with its last actor. */
export const notificationActors = pgTable(
  'notification_actors',
  {
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'notification_actors_pkey', columns: [t.notificationId, t.actorId] }),
    index('notification_actors_actor_idx').on(t.actorId),
  ],
)
