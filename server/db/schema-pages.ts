import { sql } from 'drizzle-orm'
import { check, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './schema'

/** The slugs of the instance's pages: the paths /terms and /privacy (openapi.yaml InstancePageSlug). */
export const instancePageSlugs = ['terms', 'privacy'] as const
export type InstancePageSlug = (typeof instancePageSlugs)[number]

/**
 * What an admin wrote for an instance page, as markdown (migration 0025; docs/product.md, "Instance pages"). No row:
 * the built-in default is served. `updatedBy` is kept for the record; the audit log says who, in words.
 */
export const instancePages = pgTable(
  'instance_pages',
  {
    slug: text('slug').$type<InstancePageSlug>().primaryKey(),
    body: text('body').notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('instance_pages_slug_check', sql`${t.slug} in ('terms', 'privacy')`)],
)
