import { pgTable, text } from 'drizzle-orm/pg-core'

/**
 * Secrets the server makes for itself on first use (random, never in git or the environment), shared by every process
 * on the database. In the database rather than a file under DATA_DIR because several processes on one PostgreSQL must
 * agree: two prelogin keys would answer the same unknown name differently and so betray it.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
})
