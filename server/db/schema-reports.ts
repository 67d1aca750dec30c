import { sql } from 'drizzle-orm'
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { uuidv7 } from './ids'
import { users } from './schema'
import { messages } from './schema-messages'
import { posts } from './schema-posts'

/** What a report is about (the contract's Report.type). */
export const reportTypes = ['user', 'post', 'message'] as const
export type ReportType = (typeof reportTypes)[number]

/** Where a report is in its review (docs/product.md, "Reports"). */
export const reportStatuses = ['pending', 'reviewed', 'resolved', 'dismissed'] as const
export type ReportStatus = (typeof reportStatuses)[number]

/**
 * Reports members file on a member, a post or a message (docs/product.md, "Reports").
 *
 * `target_id` is the id reported (member, post or message), kept even once the post or message is gone so the one
 * open report per reporter and target rule holds; `post_id` / `message_id` point at the live row and go null when it
 * is deleted (the card then shows no content). `target_user_id` is the member reported, or the author of the post or
 * the sender of the message. Messages are end-to-end encrypted: `message_text` is what the reporter's browser
 * decrypted and quoted, the only plaintext of a message the server ever holds.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    // Null once the reporter deleted their account: the report stays for moderators (migration 0028).
    reporterId: uuid('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    type: text('type').$type<ReportType>().notNull(),
    targetId: uuid('target_id').notNull(),
    // Null once the reported member deleted their account.
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'set null' }),
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    messageText: text('message_text'),
    reason: text('reason').notNull(),
    description: text('description'),
    status: text('status').$type<ReportStatus>().notNull().default('pending'),
    reviewNote: text('review_note'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One open report per reporter and target: two reports at once make one row and one 409.
    uniqueIndex('reports_open_target_key')
      .on(t.reporterId, t.type, t.targetId)
      .where(sql`${t.status} in ('pending', 'reviewed')`),
    // The admins' list (by status, newest first) and a member's own reports.
    index('reports_status_created_idx').on(t.status, t.createdAt, t.id),
    index('reports_created_idx').on(t.createdAt, t.id),
    index('reports_reporter_created_idx').on(t.reporterId, t.createdAt, t.id),
    index('reports_post_idx').on(t.postId).where(sql`${t.postId} is not null`),
    index('reports_message_idx').on(t.messageId).where(sql`${t.messageId} is not null`),
    index('reports_target_user_idx').on(t.targetUserId),
    check('reports_type_check', sql`${t.type} in ('user', 'post', 'message')`),
    check('reports_status_check', sql`${t.status} in ('pending', 'reviewed', 'resolved', 'dismissed')`),
  ],
)

/** What an admin did (the contract's AuditEntry.action). */
export const auditActions = [
  'fix-all-stats',
  'recalculate-stats',
  'promote',
  'demote',
  'migrate-keys',
  'review-report',
  'reset-two-factor',
  'delete-account',
  'edit-page',
] as const
export type AuditAction = (typeof auditActions)[number]

/**
 * Every admin action, written in the transaction of the action itself (docs/product.md, "Admin panel"). The admin's
 * username is copied so the log still says who once the account is gone.
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorUsername: text('actor_username').notNull(),
    action: text('action').$type<AuditAction>().notNull(),
    details: text('details').notNull(),
    data: jsonb('data').notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_audit_log_created_idx').on(t.createdAt, t.id)],
)

export type ReportRow = typeof reports.$inferSelect
