import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, smallint, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { uuidv7 } from './ids'
import { users } from './schema'
import type { MediaKind, Visibility } from './schema-posts'

/**
 * Drafts and scheduled posts are one row type (docs/product.md, "Drafts and scheduled posts"): a post not published
 * yet, private to its author. `scheduled_at` null is a draft; set, the post goes out at that time through the jobs
 * table (server/modules/drafts/publish-job.ts). Publishing inserts the post and deletes this row in one transaction,
 * so a draft is published at most once whoever tries; its media rows move to post_media with the same files.
 *
 * `failure` is why a scheduled publish was refused for good (the text broke a rule by then): the row stays, shown as
 * failed in the author's Scheduled list, until they edit, reschedule or delete it.
 */
export const drafts = pgTable(
  'drafts',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull().default(''),
    visibility: text('visibility').$type<Visibility>().notNull().default('public'),
    sensitive: boolean('sensitive').notNull().default(false),
    sensitiveReason: text('sensitive_reason'),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    failure: text('failure'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('drafts_visibility_check', sql`${t.visibility} in ('public', 'followers', 'mentioned')`),
    // Both lists, newest first, and the per-member count behind the cap.
    index('drafts_author_updated_idx').on(t.authorId, t.updatedAt, t.id),
  ],
)

/** A draft's files, stored like post media (same storage area and keys), moved to post_media when it is published. */
export const draftMedia = pgTable(
  'draft_media',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    draftId: uuid('draft_id')
      .notNull()
      .references(() => drafts.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    kind: text('kind').$type<MediaKind>().notNull(),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key'),
    mime: text('mime').notNull(),
    width: integer('width'),
    height: integer('height'),
    sizeBytes: integer('size_bytes').notNull(),
    alt: text('alt'),
  },
  (t) => [
    unique('draft_media_draft_position_key').on(t.draftId, t.position),
    check('draft_media_kind_check', sql`${t.kind} in ('image', 'video')`),
    // 0..3, and 4..7 for a moment while an edit reorders them (modules/drafts/queries.ts, updateDraft).
    check('draft_media_position_check', sql`${t.position} between 0 and 7`),
  ],
)

export type DraftMediaRow = typeof draftMedia.$inferSelect
