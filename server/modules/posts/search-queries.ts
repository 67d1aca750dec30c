import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { selectPrepared } from '../../db/prepared'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'
import type { FeedKey } from './feed-queries'
import type { CandidateSet } from './cache/search-candidates'
import type { SearchTerms } from './search-terms'
import { feedListedFor, visibleToAlias } from '../visibility/visibility'

/**
 * GET /posts/search (docs/product.md, "Search"). Words go through PostgreSQL's English full-text search on the
 * generated `posts.search_vector` (GIN index, migration 0009): stems match ('jumps' finds 'jumping'), every word must
 * be there, quoted phrases must be in order. Results are ranked by relevance (ts_rank_cd, which rewards words close
 * together), then newest first; a search of filters only (`from:`, `#tag`) is newest first. The posts a search lists
 * are exactly those the viewer's home feed could: visible to them (visibleTo) and not left out by their blocks and
 * mutes (feedListedFor).
 */

const CONFIG = sql.raw(`'english'::regconfig`)

/**
 * How many of the newest matches a word search ranks. Ranking reads every match's tsvector: a word in 10% of a
 * million posts is 100,000 rows to fetch and rank for one page (840 ms measured, bench/README.md, "Search"). The
 * newest 1,000 matches are ranked instead, so the best match of the recent ones comes first and a common word costs
 * what 1,000 matches cost; a rare word's matches are all ranked as before. Pages go on within those 1,000 (50 pages).
 */
export const RANKED = 1000

/** Relevance as a whole number (the keyset cursor's `at`): ts_rank_cd scaled, six decimals kept. */
const rankOf = (query: SQL) => sql`(ts_rank_cd(p.search_vector, ${query}) * 1000000)::bigint`

/** The `from:` and `#tag` filters, on the posts of table alias `alias`. */
function filters(terms: SearchTerms, alias: 'p' | 'm'): SQL[] {
  const a = sql.raw(alias)
  const where: SQL[] = []
  if (terms.from.length > 0) {
    where.push(sql`${a}.author_id in (select fu.id from users fu where lower(fu.username) in (${sql.join(
      terms.from.map((u) => sql`${u}`),
      sql`, `,
    )}))`)
  }
  for (const tag of terms.tags) {
    where.push(sql`exists (select 1 from post_hashtags ht where ht.post_id = ${a}.id and ht.tag = ${tag})`)
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
  const where = [visibleToAlias(viewerId, 'p'), feedListedFor(viewerId, 'p')]
  if (terms.text === '') {
    where.push(...filters(terms, 'p'))
    if (cursor) where.push(sql`(p.created_at, p.id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)`)
    return selectRows<FeedKey>(
      db,
      sql`select p.id as post_id, ${micros(sql`p.created_at`)} as at, null as reposted_by
          from posts p where ${sql.join(where, sql` and `)}
          order by p.created_at desc, p.id desc offset ${offset} limit ${limit}`,
    )
  }
  const query = sql`websearch_to_tsquery(${CONFIG}, ${terms.text})`
  // Only the newest RANKED matches are ranked (see RANKED). The innermost query has the word match (and the member's
  // own from: and #tag filters, which narrow what "newest matches" means), so that
  // PostgreSQL estimates it well from the index statistics: a common word walks posts newest first (posts_created_idx)
  // and stops after RANKED matches, a rare one reads its few matches from the GIN index. The viewer's filters then
  // leave out what they must from those.
  return selectRows<FeedKey>(
    db,
    sql`select post_id, at::text, null as reposted_by from (
          select p.id as post_id, p.created_at, ${rankOf(query)} as at
          from (
            select m.id, m.author_id, m.visibility, m.content, m.created_at, m.search_vector
            from posts m
            where m.search_vector @@ ${query} ${sql.join(filters(terms, 'm').map((f) => sql` and ${f}`), sql``)}
            order by m.created_at desc, m.id desc
            limit ${RANKED}
          ) p
          where ${sql.join(where, sql` and `)}
        ) found
        ${cursor ? sql`where (found.at, found.post_id) < (${cursor.at}::bigint, ${cursor.id}::uuid)` : sql``}
        order by found.at desc, found.post_id desc offset ${offset} limit ${limit}`,
  )
}

// The cached path (search-results.ts): the matches without the viewer, then the viewer's rules on a few of them.

/** What a search matches, in the innermost query's terms: the words and the member's own `from:` and `#tag`. */
function matchOf(terms: SearchTerms, alias: 'p' | 'm'): SQL {
  const a = sql.raw(alias)
  const where = [
    ...(terms.text === '' ? [] : [sql`${a}.search_vector @@ websearch_to_tsquery(${CONFIG}, ${terms.text})`]),
    ...filters(terms, alias),
  ]
  return where.length === 0 ? sql`true` : sql.join(where, sql` and `)
}

/** A matched post's place as a bigint on alias `p`: its rank for a word search, its time (µs) for filters only. */
function orderOf(terms: SearchTerms): SQL {
  return terms.text === ''
    ? sql`(extract(epoch from p.created_at) * 1000000)::bigint`
    : rankOf(sql`websearch_to_tsquery(${CONFIG}, ${terms.text})`)
}

/**
 * The newest RANKED matches of a search for anyone, best first, and the database's clock when read: the innermost
 * query of `searchKeys`, without the viewer's rules. The same for every member, so it can be shared for a while.
 */
export async function searchCandidates(db: SqlExecutor, terms: SearchTerms): Promise<CandidateSet> {
  const [row] = await selectRows<{ built: string; items: Array<[string, string]> }>(
    db,
    sql`with c as (
          select p.id as post_id, ${orderOf(terms)} as at
          from (
            select m.id, m.created_at, m.search_vector from posts m
            where ${matchOf(terms, 'm')}
            order by m.created_at desc, m.id desc
            limit ${RANKED}
          ) p
        )
        select ${micros(sql`now()`)} as built,
          coalesce((select json_agg(json_build_array(c.post_id, c.at::text) order by c.at desc, c.post_id desc) from c),
            '[]'::json) as items`,
  )
  return {
    builtAt: row?.built ?? '0',
    items: (row?.items ?? []).map(([post_id, at]) => ({ post_id, at })),
  }
}

/**
 * Of `ids` (candidates from the cache), those the viewer may find now: still there, still matching (an edit may have
 * changed the words), visible to them and not left out by their blocks and mutes. Primary-key reads of a few ids.
 */
export async function stillFound(
  db: Database,
  viewerId: string,
  terms: SearchTerms,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows = await selectPrepared<{ id: string }>(
    db,
    `post_search_still_v1_${shapeOf(terms)}`,
    // `offset 0` keeps the match out of the scan: pushed down, PostgreSQL ANDs the id lookup with the word's GIN
    // bitmap, reading all 108,000 entries of a common word to check 40 posts (17 ms instead of 0.3).
    sql`select p.id from (select * from posts where id = any(${`{${ids.join(',')}}`}::uuid[]) offset 0) p
        where ${matchOf(terms, 'p')} and ${visibleToAlias(viewerId, 'p')} and ${feedListedFor(viewerId, 'p')}`,
  )
  return new Set(rows.map((r) => r.id))
}

/**
 * Matches posted since `since` (database microseconds) that the viewer may find, with their `at`: what a cached
 * candidate list cannot know yet. Reads posts newest first (posts_created_idx) back to `since`: a few seconds' worth.
 */
export async function freshMatches(
  db: Database,
  viewerId: string,
  terms: SearchTerms,
  since: string,
): Promise<FeedKey[]> {
  return selectPrepared<FeedKey>(
    db,
    `post_search_fresh_v1_${shapeOf(terms)}`,
    // The newest posts first, then the match on them (`offset 0` again): the same plan for every word, so it can be
    // prepared. FRESH_MAX bounds a burst (20 s of posts at 100 a second).
    sql`select p.id as post_id, (${orderOf(terms)})::text as at, null as reposted_by from (
          select * from posts where created_at >= (timestamptz 'epoch' + ${since}::bigint * interval '1 microsecond')
          order by created_at desc limit ${FRESH_MAX} offset 0
        ) p
        where ${matchOf(terms, 'p')} and ${visibleToAlias(viewerId, 'p')} and ${feedListedFor(viewerId, 'p')}`,
  )
}

/** The most posts the fresh read looks at. */
const FRESH_MAX = 2000

/** A statement's shape for its prepared name: words or not, and how many `from:` and `#tag` filters. */
const shapeOf = (terms: SearchTerms) => `${terms.text === '' ? 'f' : 'w'}${terms.from.length}t${terms.tags.length}`
