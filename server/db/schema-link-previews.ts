import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Link previews (migration 0031; server/modules/link-previews): what the server read of a linked page, one row per
 * normalized URL and shared by every post linking it. `fetched_at` is the last successful read (reused for a day);
 * `failed_at` the last refused or failed one (not retried for a while, so a bad link posted again and again is not
 * fetched each time). A row with a null `fetched_at` has never been read successfully and is shown as no preview.
 * Title, description and site name are the page's own text, trimmed and capped, shown only as text.
 */
export const linkPreviews = pgTable('link_previews', {
  url: text('url').primaryKey(),
  title: text('title'),
  description: text('description'),
  siteName: text('site_name'),
  /** The page's image, re-encoded by us and stored under this key (media/images.ts), or null. */
  imageKey: text('image_key'),
  imageWidth: integer('image_width'),
  imageHeight: integer('image_height'),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }),
  failedAt: timestamp('failed_at', { withTimezone: true }),
})

export type LinkPreviewRow = typeof linkPreviews.$inferSelect
