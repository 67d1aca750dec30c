import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { uuidv7 } from './ids'
import { users } from './schema'

/**
 * Two-factor sign-in with TOTP (migration 0023; docs/security.md, "Two-factor sign-in"). `enabledAt` null: set up,
 * not confirmed with a code yet. `lastStep`: the time step of the last accepted code; only a later step is accepted.
 */
export const twoFactor = pgTable('two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Single-use recovery codes: SHA-256 of the normalized code; `usedAt` set when spent. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
)

/** A pending second step of a sign-in: the hash of the ticket the browser holds, and how the session will begin. */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    id: uuid('id').primaryKey().$defaultFn(uuidv7),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ticketHash: text('ticket_hash').notNull().unique('sign_in_challenges_ticket_hash_key'),
    sessionStart: jsonb('session_start').notNull().default({}),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sign_in_challenges_user_idx').on(t.userId), index('sign_in_challenges_expires_idx').on(t.expiresAt)],
)
