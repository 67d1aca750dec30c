import { index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { uuidv7 } from './ids'

/**
 * Durable background jobs (migration 0024; server/jobs/queue.ts). Claimed with FOR UPDATE SKIP LOCKED and leased
 * until `lockedUntil`; deleted when done; kept with `failedAt` after `maxAttempts` failures. `key`: at most one
 * unfinished job per key.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull().default({}),
    key: text('key'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(8),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('jobs_key_key').on(t.key), index('jobs_due_idx').on(t.runAt).where(sql`${t.failedAt} IS NULL`)],
)
