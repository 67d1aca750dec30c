import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { wordsOf } from '../visibility/visibility'

/** A member's keywords or domains, each a list of its own. */
export type FilterList = 'keywords' | 'domains'

/**
 * Where one feature keeps its two lists (blocked_keywords / blocked_domains, muted_keywords / muted_domains): the
 * tables, and whether their rows carry an id of their own (the contract gives each mute one, not each block).
 */
export interface FilterTables {
  keywords: string
  domains: string
  ids: boolean
}

export interface FilterRow {
  /** Null where the table has no id column. */
  id: string | null
  value: string
  created_at: unknown
}

const columnOf = { keywords: sql.raw('keyword'), domains: sql.raw('domain') } as const
const tableOf = (tables: FilterTables, list: FilterList) => sql.raw(tables[list])
const idOf = (tables: FilterTables) => (tables.ids ? sql.raw('id') : sql.raw('null::uuid'))

/** The member's keywords or domains in one list, alphabetically. */
export async function listFilter(db: SqlExecutor, tables: FilterTables, list: FilterList, userId: string): Promise<FilterRow[]> {
  return selectRows<FilterRow>(
    db,
    sql`select ${idOf(tables)} as id, ${columnOf[list]} as value, created_at from ${tableOf(tables, list)}
        where user_id = ${userId} order by lower(${columnOf[list]}), ${columnOf[list]}`,
  )
}

/**
 * Adds a keyword or domain unless the member already has it (compared case-insensitively) or has `cap` of them;
 * the new row otherwise. The member's row is locked first, so two adds at once cannot both pass the cap. A keyword's
 * `pattern` is made with the expression the feed applies to post text (visibility/visibility.ts, `wordsOf`).
 */
export async function addFilter(
  tx: Database,
  tables: FilterTables,
  list: FilterList,
  userId: string,
  value: string,
  cap: number,
): Promise<FilterRow | 'exists' | 'full'> {
  await tx.execute(sql`select id from users where id = ${userId} for no key update`)
  const [existing] = await selectRows<{ n: number; same: number }>(
    tx,
    sql`select count(*)::int as n, count(*) filter (where lower(${columnOf[list]}) = lower(${value}))::int as same
        from ${tableOf(tables, list)} where user_id = ${userId}`,
  )
  if ((existing?.same ?? 0) > 0) return 'exists'
  if ((existing?.n ?? 0) >= cap) return 'full'
  const names = [...(tables.ids ? [sql.raw('id')] : []), sql.raw('user_id'), columnOf[list]]
  const values = [...(tables.ids ? [sql`${uuidv7()}`] : []), sql`${userId}`, sql`${value}`]
  if (list === 'keywords') {
    names.push(sql.raw('pattern'))
    values.push(wordsOf(sql`${value}::text`))
  }
  const [row] = await selectRows<FilterRow>(
    tx,
    sql`insert into ${tableOf(tables, list)} (${sql.join(names, sql`, `)}) values (${sql.join(values, sql`, `)})
        returning ${idOf(tables)} as id, ${columnOf[list]} as value, created_at`,
  )
  if (!row) throw new Error(`the ${tables[list]} row was not returned`)
  return row
}

/** Removes a keyword or domain, compared case-insensitively; false when the member had none such. */
export async function removeFilter(
  db: SqlExecutor,
  tables: FilterTables,
  list: FilterList,
  userId: string,
  value: string,
): Promise<boolean> {
  const rows = await selectRows<{ user_id: string }>(
    db,
    sql`delete from ${tableOf(tables, list)} where user_id = ${userId} and lower(${columnOf[list]}) = lower(${value})
        returning user_id`,
  )
  return rows.length > 0
}
