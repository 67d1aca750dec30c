import { sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import type { Database } from '../../server/db/client'
import type { Cursor } from '../../server/lib/cursor'
import * as schema from '../../server/db/schema'
import { feedKeys, feedPlanFor, feedStatement } from '../../server/modules/posts/feed-queries'
import { hydratePosts } from '../../server/modules/posts/queries'

/**
 * The feed's SQL without HTTP: the posts module's own query functions (never a copy of their SQL) on a plain `pg`
 * pool, so the difference to the HTTP numbers is the web layer (session check, serialization, sockets).
 */

export interface Viewer {
  id: string
  username: string
  followingCount: number
}

export interface SqlFeed {
  db: Database
  /** The feed keys statement for one page (20 + 1 to learn whether a next page exists), as the service asks. */
  keys: (viewer: Viewer) => Promise<number>
  /**
   * Keys, then the cards of the page (hydratePosts): all the SQL of a feed page except the session lookup. With a
   * cursor (from a page's `nextCursor`), the page after it, as the service reads pages 2 and on.
   */
  page: (viewer: Viewer, cursor?: Cursor) => Promise<number>
  explain: (viewer: Viewer) => Promise<string>
  close: () => Promise<void>
}

const PAGE = 20
const dialect = new PgDialect()

export function openSqlFeed(url: string, connections: number, idleTimeoutMillis?: number): SqlFeed {
  // Same session settings as the app's pool (server/db/client.ts: no JIT), so only the web layer differs.
  const pool = new pg.Pool({ connectionString: url, max: connections, options: '-c jit=off', idleTimeoutMillis })
  // An idle pooled connection that fails (the server restarting, the database dropped) emits 'error' on the pool;
  // unheard, that would end the process mid-report.
  pool.on('error', (err) => console.error(`bench pg pool: ${err.message}`))
  const db: Database = drizzle({ client: pool, schema })
  const keys = (viewer: Viewer, cursor?: Cursor) =>
    feedKeys(db, viewer.id, cursor, PAGE + 1, feedPlanFor(viewer.followingCount))
  return {
    db,
    keys: async (viewer) => (await keys(viewer)).length,
    page: async (viewer, cursor) => {
      const found = await keys(viewer, cursor)
      const cards = await hydratePosts(
        db,
        viewer.id,
        found.slice(0, PAGE).map((k) => k.post_id),
      )
      return cards.size
    },
    explain: async (viewer) => {
      const plan = feedPlanFor(viewer.followingCount)
      const { sql: text, params } = dialect.sqlToQuery(feedStatement(viewer.id, undefined, PAGE + 1, plan))
      // The app runs this as a named prepared statement, which PostgreSQL switches to a generic plan after a few
      // executions; EXPLAIN of the bare text would show a custom plan the app does not run in steady state.
      const client = await pool.connect()
      try {
        await client.query('set plan_cache_mode = force_generic_plan')
        await client.query(`prepare bench_feed as ${text}`)
        // EXECUTE takes no bind parameters: the values go in as literals (untyped, so each takes its parameter's type).
        const args = params.map((v) => client.escapeLiteral(String(v))).join(', ')
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers) execute bench_feed(${args})`,
        )
        return `plan: ${plan} (generic)\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`
      } finally {
        await client.query('deallocate all').catch(() => undefined)
        await client.query('reset plan_cache_mode').catch(() => undefined)
        client.release()
      }
    },
    close: () => pool.end(),
  }
}

export async function findViewer(db: Database, username: string): Promise<Viewer> {
  const result: unknown = await db.execute(
    sql`select id, username, following_count from users where username = ${username}`,
  )
  const rows = (result as { rows: Array<{ id: string; username: string; following_count: number }> }).rows
  const row = rows[0]
  if (!row) throw new Error(`No member ${username}: was the database seeded?`)
  return { id: row.id, username: row.username, followingCount: row.following_count }
}
