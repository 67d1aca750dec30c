import { type Query, type SQL } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/node-postgres'
import { PgDialect } from 'drizzle-orm/pg-core'
import pg from 'pg'
import { LIMITS } from '../../src/api/contract/limits'
import type { Database } from '../../server/db/client'
import * as schema from '../../server/db/schema'
import { TRENDS_SHOWN } from '../../server/modules/hashtags/service'
import { hashtagsStartingWith, trendingTags } from '../../server/modules/hashtags/queries'
import { notificationPage, notificationPageAndCount, unreadCount } from '../../server/modules/notifications/queries'
import { hydratePosts } from '../../server/modules/posts/queries'
import { searchKeys } from '../../server/modules/posts/search-queries'
import { parseSearch } from '../../server/modules/posts/search-terms'
import { searchUserPage, suggestedUsers } from '../../server/modules/users/search-queries'
import { searchNeedle, SUGGESTIONS } from '../../server/modules/users/service'
import { likeLiteral } from '../../server/lib/like'

/**
 * The SQL of each searched endpoint without HTTP: the server modules' own query functions (never a copy of their
 * SQL), called as their services call them for a first page, on a plain `pg` pool with the app's session settings.
 */

const PAGE = LIMITS.pageSize

export interface SqlSearch {
  db: Database
  /** searchKeys (page + 1) then the page's cards (hydratePosts), as PostService.search. */
  posts: (viewerId: string, q: string) => Promise<number>
  /** Suggestions (first page) then the matches, as UserService.search. */
  users: (viewerId: string, q: string) => Promise<number>
  trends: () => Promise<number>
  hashtags: (q: string) => Promise<number>
  /** The page and the unread count in one statement, as NotificationService.list. */
  notifications: (viewerId: string) => Promise<number>
  /** EXPLAIN (ANALYZE, BUFFERS) of the post search's keys statement, as the app runs it (unnamed: a custom plan). */
  explainPosts: (viewerId: string, q: string) => Promise<string>
  explainNotifications: (viewerId: string) => Promise<string>
  close: () => Promise<void>
}

const dialect = new PgDialect()

/**
 * A recording executor: the query functions build their statement, we keep it (as text and parameters) instead of
 * running it. Both ways a query function runs SQL are recorded: `db.execute` and a named prepared statement
 * (server/db/prepared.ts goes through `db._.session.prepareQuery`).
 */
function capture(build: (db: Database) => Promise<unknown>): Promise<Query> {
  let captured: Query | undefined
  const fake = {
    execute: (query: SQL) => {
      captured = dialect.sqlToQuery(query)
      return Promise.resolve({ rows: [] })
    },
    _: {
      session: {
        prepareQuery: (query: Query) => {
          captured = query
          return { execute: () => Promise.resolve({ rows: [] }) }
        },
      },
    },
  } as unknown as Database
  return build(fake).then(() => {
    if (!captured) throw new Error('no statement built')
    return captured
  })
}

export function openSqlSearch(url: string, connections: number): SqlSearch {
  const pool = new pg.Pool({ connectionString: url, max: connections, options: '-c jit=off' })
  pool.on('error', (err) => console.error(`bench pg pool: ${err.message}`))
  const db: Database = drizzle({ client: pool, schema })
  const explain = async ({ sql: text, params }: Query) => {
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${text}`, params)
    return rows.map((r) => r['QUERY PLAN']).join('\n')
  }
  return {
    db,
    posts: async (viewerId, q) => {
      const keys = await searchKeys(db, viewerId, parseSearch(q), undefined, 0, PAGE + 1)
      const cards = await hydratePosts(db, viewerId, keys.slice(0, PAGE).map((k) => k.post_id))
      return cards.size
    },
    users: async (viewerId, q) => {
      await suggestedUsers(db, viewerId, SUGGESTIONS)
      return (await searchUserPage(db, viewerId, searchNeedle(q), undefined, 0, PAGE + 1)).length
    },
    trends: async () => (await trendingTags(db, TRENDS_SHOWN)).length,
    hashtags: async (q) => (await hashtagsStartingWith(db, likeLiteral(q), undefined, 0, PAGE + 1)).length,
    notifications: async (viewerId) => (await notificationPageAndCount(db, viewerId, 'all', undefined, 0, PAGE + 1)).rows.length,
    explainPosts: async (viewerId, q) =>
      explain(await capture((fake) => searchKeys(fake, viewerId, parseSearch(q), undefined, 0, PAGE + 1))),
    explainNotifications: async (viewerId) => {
      const page = await explain(await capture((fake) => notificationPage(fake, viewerId, 'all', undefined, 0, PAGE + 1)))
      const unread = await explain(await capture((fake) => unreadCount(fake, viewerId)))
      return `-- notificationPage\n${page}\n\n-- unreadCount\n${unread}`
    },
    close: () => pool.end(),
  }
}
