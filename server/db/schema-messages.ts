import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { uuidv7 } from './ids'
import { users } from './schema'

/**
 * Direct conversations (docs/product.md, "Direct messages"): 1:1 only. The pair is stored ordered (member_low <
 * member_high) under a unique index, so two members starting a conversation with each other at the same moment get
 * one conversation, not two.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    memberLow: uuid('member_low')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    memberHigh: uuid('member_high')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('conversations_pair_key').on(t.memberLow, t.memberHigh),
    check('conversations_pair_order_check', sql`${t.memberLow} < ${t.memberHigh}`),
  ],
)

/**
 * One row per participant: what each member sees of the conversation. `last_activity_at` (the last message, or the
 * creation) is copied onto both rows so a member's list is one index range in keyset order. `cleared_at` is
 * "delete conversation for me": messages up to then are gone for this member; `hidden` keeps it off their list until
 * a new message arrives (or they reopen it).
 */
export const conversationMembers = pgTable(
  'conversation_members',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    muted: boolean('muted').notNull().default(false),
    archived: boolean('archived').notNull().default(false),
    hidden: boolean('hidden').notNull().default(false),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'conversation_members_pkey', columns: [t.conversationId, t.userId] }),
    // The list: a member's visible conversations, archived or not, most recent activity first.
    index('conversation_members_list_idx').on(t.userId, t.archived, t.lastActivityAt, t.conversationId).where(sql`not ${t.hidden}`),
  ],
)

/**
 * Messages hold ciphertext only (docs/security.md): `content` is the envelope the sender's browser made, emptied
 * when the message is deleted. `read_at` is set once, when the recipient marks the conversation read: a flag per
 * message (not a read-up-to watermark) keeps unread counts exact when a send commits after a later mark-read.
 */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    edited: boolean('edited').notNull().default(false),
    deleted: boolean('deleted').notNull().default(false),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
  },
  (t) => [
    // History (newest first, keyset on time and id) and each conversation's last message.
    index('messages_conversation_created_idx').on(t.conversationId, t.createdAt, t.id),
    // Unread counts and mark-read touch only the few unread messages.
    index('messages_unread_idx')
      .on(t.conversationId, t.senderId)
      .where(sql`${t.readAt} is null and not ${t.deleted}`),
  ],
)

/**
 * Encrypted photos and videos of messages (migration 0021; docs/security.md, "Attachments"): opaque blobs under
 * DATA_DIR/attachments. `message_id` is null until a send or edit names the blob; unnamed blobs are swept after 24 h.
 */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('message_attachments_storage_key_key').on(t.storageKey),
    check('message_attachments_size_check', sql`${t.size} > 0`),
    index('message_attachments_message_idx').on(t.messageId).where(sql`${t.messageId} is not null`),
    index('message_attachments_unsent_idx').on(t.createdAt).where(sql`${t.messageId} is null`),
  ],
)

export type ConversationRow = typeof conversations.$inferSelect
export type MessageRow = typeof messages.$inferSelect
