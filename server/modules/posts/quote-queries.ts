import { sql } from 'drizzle-orm'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'
import type { Visibility } from '../../db/schema-posts'
import { feedListedFor, visibleToAlias } from '../visibility/visibility'
import type { KeyRow } from './queries'

/**
 * The quotes of a post the viewer may see, newest first, strictly below `cursor`: attached ones only, visible to the
 * viewer and listed to them as in a feed (blocked and muted members, keywords and domains left out). `limit` is one
 * more than the page so the caller knows whether a next page exists.
 */
export function quoteKeys(
  db: SqlExecutor,
  viewerId: string,
  postId: string,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<KeyRow[]> {
  return selectRows<KeyRow>(
    db,
    sql`select q.id as post_id, ${micros(sql`q.created_at`)} as at
        from posts q
        where q.quote_of = ${postId} and q.quote_detached_at is null
          and ${visibleToAlias(viewerId, 'q')} and ${feedListedFor(viewerId, 'q')}
          ${cursor ? sql`and (q.created_at, q.id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by q.created_at desc, q.id desc
        offset ${offset} limit ${limit}`,
  )
}

/** A quote as detaching looks at it, its row locked. */
export interface QuoteToDetach {
  id: string
  visibility: Visibility
  quote_of: string | null
  detached: boolean
  /** The quoted post's author; null when it quotes nothing or the quoted post is gone. */
  quoted_author_id: string | null
  /** The viewer may see the quote itself. */
  visible: boolean
}

export async function findQuoteToDetach(tx: SqlExecutor, viewerId: string, quoteId: string): Promise<QuoteToDetach | undefined> {
  const [row] = await selectRows<QuoteToDetach>(
    tx,
    sql`select p.id, p.visibility, p.quote_of, p.quote_detached_at is not null as detached,
          q.author_id as quoted_author_id, ${visibleToAlias(viewerId, 'p')} as visible
        from posts p left join posts q on q.id = p.quote_of
        where p.id = ${quoteId}
        for update of p`,
  )
  return row
}

/** Detaches the quote for good; a public quote stops counting on the post it quoted. */
export async function markDetached(tx: SqlExecutor, quote: QuoteToDetach): Promise<void> {
  await tx.execute(sql`update posts set quote_detached_at = now() where id = ${quote.id}`)
  if (quote.visibility === 'public' && quote.quote_of !== null) {
    await tx.execute(sql`update posts set quote_count = greatest(0, quote_count - 1) where id = ${quote.quote_of}`)
  }
}
