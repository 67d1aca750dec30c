import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { uuidv7 } from './ids'
import { users } from './schema'

/**
 * Single-use password reset links (migration 0027; docs/security.md, "Password reset and the recovery key"): the
 * SHA-256 of the token mailed to the member, good for an hour; `usedAt` set by the one reset that spends it.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('password_reset_tokens_token_hash_key'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
)
