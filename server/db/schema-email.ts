import { check, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { uuidv7 } from './ids'
import { users } from './schema'

/**
 * Links mailed to confirm an address (migration 0026; server/modules/email). `tokenHash`: SHA-256 of the token in the
 * link. `email`: the address the link confirms (the current one, or a pending new one). One live link per member:
 * a new one deletes the older ones, opening one deletes it.
 */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    purpose: text('purpose').$type<'verify'>().notNull().default('verify'),
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('email_tokens_token_hash_key').on(t.tokenHash),
    index('email_tokens_user_idx').on(t.userId),
    check('email_tokens_purpose_check', sql`${t.purpose} in ('verify')`),
  ],
)
