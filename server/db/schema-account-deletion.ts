import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Usernames of deleted accounts, held for 30 days (docs/product.md, "Deleting an account"): registration refuses a
 * held name as taken, so nobody can pass for a member who just left. `name` is lowercased, as usernames are compared.
 */
export const heldUsernames = pgTable(
  'held_usernames',
  {
    name: text('name').primaryKey(),
    until: timestamp('until', { withTimezone: true }).notNull(),
  },
  (t) => [index('held_usernames_until_idx').on(t.until)],
)
