import type { SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { Database } from './client'

const dialect = new PgDialect()

/**
 * Runs hand-written SQL as a *named* prepared statement: PostgreSQL parses and plans it once per connection and then
 * reuses a generic plan, instead of planning it on every call. Worth it for big statements on hot paths (planning
 * the home feed costs more than running it); pointless elsewhere.
 *
 * The statement text for a name must never change within a process (pg refuses a name reused with other text), so
 * keep everything variable in parameters and give each shape of statement its own name. PGlite ignores the name.
 *
 * Goes through `db._.session.prepareQuery`, drizzle's public session API, because `db.execute` cannot name a
 * statement.
 */
export async function selectPrepared<T>(db: Database, name: string, query: SQL): Promise<T[]> {
  const prepared = db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false)
  const result: unknown = await prepared.execute()
  const rows = (result as { rows?: unknown } | null)?.rows
  if (!Array.isArray(rows)) throw new Error('The database driver returned no rows array')
  return rows as T[]
}
