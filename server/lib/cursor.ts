import { type AnyColumn, sql, type SQL } from 'drizzle-orm'
import { LIMITS } from '../../src/api/contract/limits'
import { Invalid } from './domain-errors'

/**
 * Keyset cursors: the position of the last item of a page, as (time in microseconds since the epoch, id). Opaque to
 * clients (base64url JSON), so its shape may change without breaking anyone; a cursor that does not decode is 400.
 *
 * Microseconds, not milliseconds: PostgreSQL keeps microseconds, and a cursor rounded to the millisecond would skip
 * or repeat items created within the same millisecond.
 */
export interface Cursor {
  /** Microseconds since the epoch, as decimal text (beyond Number's exact range). */
  at: string
  id: string
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const MICROS = /^-?\d{1,18}$/
/**
 * The times a cursor may name: from the epoch to the end of the year 9999. Every stored time lies inside; a value
 * beyond would overflow PostgreSQL's bigint or timestamp arithmetic (an error, not an empty page), so it is refused
 * as a malformed cursor.
 */
const MICROS_MIN = 0n
const MICROS_MAX = 253_402_300_799_999_999n

export const INVALID_CURSOR = 'Invalid cursor'

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url')
}

export function decodeCursor(text: string): Cursor {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    throw new Invalid(INVALID_CURSOR)
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw new Invalid(INVALID_CURSOR)
  const [at, id] = parsed as unknown[]
  if (typeof at !== 'string' || typeof id !== 'string' || !MICROS.test(at) || !UUID.test(id)) {
    throw new Invalid(INVALID_CURSOR)
  }
  const time = BigInt(at)
  if (time < MICROS_MIN || time > MICROS_MAX) throw new Invalid(INVALID_CURSOR)
  return { at: time.toString(), id }
}

/** SQL for a timestamp column as microseconds since the epoch, as text (what a cursor carries). */
export function micros(column: AnyColumn | SQL): SQL {
  return sql`((extract(epoch from ${column}) * 1000000)::bigint)::text`
}

/** The timestamp a cursor names, as a SQL value to compare columns with. */
export function cursorTime(cursor: Cursor): SQL {
  return sql`(timestamptz 'epoch' + ${cursor.at}::bigint * interval '1 microsecond')`
}

/** How one page is asked for: after a cursor, or at an offset (`page`/`limit`), `limit` items. */
export interface PageRequest {
  cursor: Cursor | undefined
  offset: number
  limit: number
}

export const DEEP_PAGE = `Pages past the first ${LIMITS.offsetItemsMax.toLocaleString('en-US')} items are read with the cursor: pass nextCursor`

/**
 * The contract's rule: `cursor` wins over `page`; page is 1-based. An offset page reaches at most
 * LIMITS.offsetItemsMax items (page × limit): the database reads and drops every row before the page, so deeper
 * reading goes by cursor, which costs the same at any depth.
 */
export function pageRequest(query: { cursor?: string; page?: number; limit?: number }): PageRequest {
  const limit = query.limit ?? LIMITS.pageSize
  if (query.cursor) return { cursor: decodeCursor(query.cursor), offset: 0, limit }
  const page = query.page ?? 1
  if (page * limit > LIMITS.offsetItemsMax) throw new Invalid(DEEP_PAGE)
  return { cursor: undefined, offset: (page - 1) * limit, limit }
}

/**
 * A keyset page from rows read with `limit + 1` (the extra row only says that more exist): the first `limit` rows as
 * items, and the cursor of the last one when there is more to read.
 */
export function keysetPage<R extends Cursor, T>(
  rows: readonly R[],
  limit: number,
  toItem: (row: R) => T,
): { items: T[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit)
  const last = shown[shown.length - 1]
  return {
    items: shown.map(toItem),
    nextCursor: rows.length > limit && last ? encodeCursor({ at: last.at, id: last.id }) : null,
  }
}
