import { sql, type SQL } from 'drizzle-orm'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'
import type { FeedKey } from './feed-queries'
import type { SearchTerms } from './search-terms'
import { feedListedFor, visibleToAlias } from './visibility'

/**
 * GET /posts/search (docs/product.md, "Search"). Words go through PostgreSQL's English full-text search on the
 * generated `posts.search_vector` (GIN index, migration 0009): stems match ('jumps' finds 'jumping'), every word must
 * be there, quoted phrases must be in order. Results are ranked by relevance (ts_rank_cd, which rewards words close
 * together), then newest first; a search of filters only (`from:`, `#tag`) is newest first. The posts a search lists
 * are exactly those the viewer's home feed could: visible to them (visibleTo) and not left out by their blocks and
 * mutes (feedListedFor).
 */

const CONFIG = sql.raw(`'english'::regconfig`)

/** Relevance as a whole number (the keyset cursor's `at`): ts_rank_cd scaled, six decimals kept. */
const rankOf = (query: SQL) => sql`(ts_rank_cd(p.search_vector, ${query}) * 1000000)::bigint`

function filters(terms: SearchTerms): SQL[] {
  const where: SQL[] = []
  if (terms.from.length > 0) {
    where.push(sql`p.author_id in (select fu.id from users fu where lower(fu.username) in (${sql.join(
      terms.from.map((u) => sql`${u}`),
      sql`, `,
    )}))`)
  }
  for (const tag of terms.tags) {
    where.push(sql`exists (select 1 from post_hashtags ht where ht.post_id = p.id and ht.tag = ${tag})`)
  }
  return where
}

export async function searchKeys(
  db: SqlExecutor,
  viewerId: string,
  terms: SearchTerms,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<FeedKey[]> {
  const where = [...filters(terms), visibleToAlias(viewerId, 'p'), feedListedFor(viewerId, 'p')]
  if (terms.text === '') {
    if (cursor) where.push(sql`(p.created_at, p.id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)`)
    return selectRows<FeedKey>(
      db,
      sql`select p.id as post_id, ${micros(sql`p.created_at`)} as at, null as reposted_by
          from posts p where ${sql.join(where, sql` and `)}
          order by p.created_at desc, p.id desc offset ${offset} limit ${limit}`,
    )
  }
  const query = sql`websearch_to_tsquery(${CONFIG}, ${terms.text})`
  return selectRows<FeedKey>(
    db,
    sql`select post_id, at::text, null as reposted_by from (
          select p.id as post_id, p.created_at, ${rankOf(query)} as at
          from posts p
          where p.search_vector @@ ${query} and ${sql.join(where, sql` and `)}
        ) found
        ${cursor ? sql`where (found.at, found.post_id) < (${cursor.at}::bigint, ${cursor.id}::uuid)` : sql``}
        order by found.at desc, found.post_id desc offset ${offset} limit ${limit}`,
  )
}
