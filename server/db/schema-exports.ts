import { sql } from 'drizzle-orm'
import { bigint, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { uuidv7 } from './ids'
import { users } from './schema'

/** Where an export is (the contract's DataExport.status). */
export const exportStatuses = ['preparing', 'ready', 'failed'] as const
export type ExportStatus = (typeof exportStatuses)[number]

/**
 * A member's data exports (migration 0029; server/modules/exports). The zip lives in DATA_DIR/exports/<id>.zip, never
 * under the public media folder, and is served only to its owner. A ready export expires 7 days after it was ready:
 * a job scheduled then deletes file and row. One being prepared per member at a time (the job key `export:<userId>`).
 */
export const dataExports = pgTable(
  'exports',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<ExportStatus>().notNull().default('preparing'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
  },
  (t) => [
    index('exports_user_created_idx').on(t.userId, t.createdAt),
    check('exports_status_check', sql`${t.status} in ('preparing', 'ready', 'failed')`),
    check('exports_ready_check', sql`(${t.status} = 'ready') = (${t.expiresAt} is not null)`),
  ],
)

export type DataExportRow = typeof dataExports.$inferSelect
