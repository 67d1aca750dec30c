import { sql } from 'drizzle-orm'
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './schema'

/**
 * Every public message key a member has had: from when (`since`) and until when (`until`, null for the key in use).
 * Appended by a row trigger on users (migration 0020) whenever `public_key` changes, however it is stored; read by
 * GET /users/{id}/key-history so a member's browser can say when a contact's safety number changed.
 */
export const memberKeyHistory = pgTable(
  'member_key_history',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    publicKey: text('public_key').notNull(),
    since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
    until: timestamp('until', { withTimezone: true }),
  },
  (t) => [index('member_key_history_user_since_idx').on(t.userId, t.since, t.id)],
)

/**
 * What a member's browsers decided about a contact's key (the key accepted, verified or not, when), sealed in the
 * browser under a key only the member's browsers derive (src/crypto/trust-record.ts). Opaque to the server, which
 * checks its shape and size only and so can neither read it nor mark a key of its own as accepted or verified.
 */
export const trustRecords = pgTable(
  'trust_records',
  {
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    record: text('record').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.ownerId, t.contactId] }),
    check('trust_records_not_self_check', sql`${t.ownerId} <> ${t.contactId}`),
    check('trust_records_record_length_check', sql`char_length(${t.record}) <= 512`),
  ],
)
