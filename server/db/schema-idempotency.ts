import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './schema'

/**
 * Idempotency keys (migration 0030; server/modules/idempotency): one row per member and `Idempotency-Key`, claimed
 * before the write runs (the primary key makes the claim atomic across processes) and completed with the write's
 * answer, which a retry with the same key receives instead of a second write. `status` and `body` are null while the
 * first request is in flight. The request itself is not stored, only `fingerprint` (SHA-256 of the operation, its
 * path, body and uploaded bytes), so a key reused for another request can be told apart. Rows older than 24 hours
 * are forgotten: a claim takes them over and the sweep job deletes them.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    fingerprint: text('fingerprint').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    status: integer('status'),
    body: jsonb('body'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
)
