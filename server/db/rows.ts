import type { SQL } from 'drizzle-orm'
import type { Database } from './client'

/** What both a database and an open transaction offer for raw SQL. */
export type SqlExecutor = Pick<Database, 'execute'>

/**
 * Runs hand-written SQL and returns its rows. Both drivers (pg and PGlite) answer `{ rows }`; the row type is the
 * caller's statement about its own select list, so keep the two next to each other. Cast counts to int and
 * timestamps-for-cursors to text in SQL: the drivers disagree on bigint and precision.
 */
export async function selectRows<T>(db: SqlExecutor, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query)
  const rows = (result as { rows?: unknown } | null)?.rows
  if (!Array.isArray(rows)) throw new Error('The database driver returned no rows array')
  return rows as T[]
}

/** Timestamps arrive as Date (pg) or string, depending on the driver and on how the column was produced. */
export function toDate(value: unknown): Date {
  if (value instanceof Date) return value
  if (typeof value === 'string' || typeof value === 'number') return new Date(value)
  throw new Error(`Not a timestamp: ${String(value)}`)
}
