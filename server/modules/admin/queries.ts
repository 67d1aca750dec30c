import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { selectRows, type SqlExecutor } from '../../db/rows'
import type { UserRow } from '../../db/schema'
import type { AuditAction } from '../../db/schema-reports'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'

export async function findRoleByUsername(db: SqlExecutor, username: string, lock = false) {
  const [row] = await selectRows<{ id: string; username: string; isAdmin: boolean }>(
    db,
    sql`select id, username, is_admin as "isAdmin" from users where lower(username) = lower(${username}) limit 1
        ${lock ? sql`for no key update` : sql``}`,
  )
  return row
}

export async function setAdmin(db: SqlExecutor, userId: string, isAdmin: boolean): Promise<void> {
  await db.execute(sql`update users set is_admin = ${isAdmin}, updated_at = now() where id = ${userId}`)
}

/**
 * Locks every admin's row and answers how many there are: a demotion takes these locks first, so two demotions at
 * once run one after the other and the second sees the first's result (the last admin always stays).
 */
export async function lockAdmins(tx: SqlExecutor): Promise<number> {
  const rows = await selectRows<{ id: string }>(tx, sql`select id from users where is_admin order by id for no key update`)
  return rows.length
}

// ---- the audit log ----------------------------------------------------------------------------------------------

/** In the caller's transaction, so an action and its entry commit together. */
export async function recordAudit(
  tx: SqlExecutor,
  actor: Pick<UserRow, 'id' | 'username'>,
  action: AuditAction,
  details: string,
  data: Record<string, unknown> = {},
): Promise<void> {
  await tx.execute(
    sql`insert into admin_audit_log (id, actor_id, actor_username, action, details, data)
        values (${uuidv7()}, ${actor.id}, ${actor.username}, ${action}, ${details}, ${JSON.stringify(data)}::jsonb)`,
  )
}

export interface AuditRow {
  id: string
  action: AuditAction
  details: string
  actor_id: string | null
  actor_username: string
  created_at: unknown
  at: string
}

/** One page of the log, newest first; keyset on (time, id). The actor's current username when they still exist. */
export async function auditPage(
  db: SqlExecutor,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<AuditRow[]> {
  return selectRows<AuditRow>(
    db,
    sql`select a.id, a.action, a.details, u.id as actor_id, coalesce(u.username, a.actor_username) as actor_username,
          a.created_at, ${micros(sql`a.created_at`)} as at
        from admin_audit_log a left join users u on u.id = a.actor_id
        where true ${cursor ? sql`and (a.created_at, a.id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by a.created_at desc, a.id desc
        offset ${offset} limit ${limit}`,
  )
}

// ---- counters ---------------------------------------------------------------------------------------------------

/**
 * Every denormalised counter and how to count it from the rows it counts. `counted` is a set-based count (one
 * grouped scan of the counted table), `exact` the same count for one row `t` (an index probe).
 */
export interface Counter {
  table: 'users' | 'posts'
  column: string
  counted: SQL
  exact: SQL
}

export const COUNTERS: readonly Counter[] = [
  {
    table: 'users',
    column: 'followers_count',
    counted: sql`select followee_id as id, count(*)::int as n from follows group by followee_id`,
    exact: sql`(select count(*)::int from follows f where f.followee_id = t.id)`,
  },
  {
    table: 'users',
    column: 'following_count',
    counted: sql`select follower_id as id, count(*)::int as n from follows group by follower_id`,
    exact: sql`(select count(*)::int from follows f where f.follower_id = t.id)`,
  },
  {
    table: 'users',
    column: 'posts_count',
    counted: sql`select author_id as id, count(*)::int as n from posts group by author_id`,
    exact: sql`(select count(*)::int from posts p where p.author_id = t.id)`,
  },
  {
    table: 'posts',
    column: 'like_count',
    counted: sql`select post_id as id, count(*)::int as n from likes group by post_id`,
    exact: sql`(select count(*)::int from likes l where l.post_id = t.id)`,
  },
  {
    table: 'posts',
    column: 'repost_count',
    counted: sql`select post_id as id, count(*)::int as n from reposts group by post_id`,
    exact: sql`(select count(*)::int from reposts r where r.post_id = t.id)`,
  },
  {
    // Direct replies that are public (non-public ones are counted per viewer at read time).
    table: 'posts',
    column: 'reply_count',
    counted: sql`select reply_to as id, count(*)::int as n from posts
                 where reply_to is not null and visibility = 'public' group by reply_to`,
    exact: sql`(select count(*)::int from posts r where r.reply_to = t.id and r.visibility = 'public')`,
  },
]

/**
 * The rows whose counter differs from a set-based count, in one statement without locks (a grouped scan and a hash
 * join). Rows that change meanwhile are kept right by the writes themselves; the ids found are corrected under lock.
 */
export async function wrongRows(db: SqlExecutor, counter: Counter): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`select t.id from ${sql.raw(counter.table)} t left join (${counter.counted}) c on c.id = t.id
        where t.${sql.raw(counter.column)} <> coalesce(c.n, 0)`,
  )
  return rows.map((r) => r.id)
}

const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`

/**
 * In a short transaction: locks the rows (the writes that move a counter lock the same row, so none runs between
 * the count and the update), then sets the counter from a fresh count where it still differs. Returns the ids fixed.
 */
export async function fixRows(db: Database, counter: Counter, ids: readonly string[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    const table = sql.raw(counter.table)
    const column = sql.raw(counter.column)
    await tx.execute(sql`select id from ${table} where id = any(${uuidArray(ids)}) order by id for no key update`)
    // Counted once per row (a correlated index probe), compared and set from the same value.
    const rows = await selectRows<{ id: string }>(
      tx,
      sql`update ${table} u set ${column} = c.n
          from (select t.id, ${counter.exact} as n from ${table} t where t.id = any(${uuidArray(ids)})) c
          where u.id = c.id and u.${column} <> c.n
          returning u.id`,
    )
    return rows.map((r) => r.id)
  })
}

export async function memberCount(db: SqlExecutor): Promise<number> {
  const [row] = await selectRows<{ n: number }>(db, sql`select count(*)::int as n from users`)
  return row?.n ?? 0
}

/** One member's three counters, recounted under the row's lock; undefined for an unknown member. */
export async function recountMember(db: Database, userId: string) {
  return db.transaction(async (tx) => {
    const [locked] = await selectRows<{ id: string }>(tx, sql`select id from users where id = ${userId} for no key update`)
    if (!locked) return undefined
    const userCounters = COUNTERS.filter((c) => c.table === 'users')
    const [row] = await selectRows<{ id: string; username: string; followers: number; following: number; posts: number }>(
      tx,
      sql`update users t set ${sql.join(
        userCounters.map((c) => sql`${sql.raw(c.column)} = ${c.exact}`),
        sql`, `,
      )}
          where t.id = ${userId}
          returning t.id, t.username, t.followers_count as followers, t.following_count as following,
            t.posts_count as posts`,
    )
    return row
  })
}

