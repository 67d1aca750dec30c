import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { selectPrepared } from '../../db/prepared'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'
import type { FeedKey } from './feed-queries'
import { feedListedFor, visibleToAlias, visibleToAnyone } from '../visibility/visibility'

/**
 * Explore, the community timeline (docs/product.md, "Explore"): every public top-level post of the instance's public
 * accounts, newest first, as feed keys the caller hydrates like the home feed's.
 *
 * Rules (decided here, once):
 * - Only what anyone may see (`visibleToAnyone`): public posts of public accounts. A private account's posts stay out
 *   even for its approved followers, and so do followers-only and mentioned posts: Explore is the instance's public
 *   face, the same for every member but for their own filters.
 * - Top-level originals only: no replies (a reply read alone is half a conversation) and no reposts (a repost would
 *   list a post a second time; the original is already here).
 * - The viewer's filters, as in the home feed: visibility (blocks either way, members deleting their account), blocked
 *   keywords and domains, and mutes of members, keywords and domains (`visibleToAlias`, `feedListedFor`).
 *
 * Keyset: (created_at, id) descending, a page continues strictly below the cursor, so a post written while the member
 * reads never slips into a later page. The first page reads below a position above every post, so every page is the
 * same statement text (one named prepared statement, db/prepared.ts).
 *
 * Plan: a backward walk of posts_public_created_idx (public top-level posts only, migration 0032) that stops after
 * `offset + n` rows pass the filters; the filters are hash probes into sets built once per statement. Its cost grows
 * with the page, not with the number of posts.
 *
 * Not cached: the keys differ per viewer (their blocks and mutes), so one shared list would need filtering again on
 * every read, and the statement is already a short index walk. The cards come from the post caches like every list's.
 */

const TOP: Cursor = { at: '9000000000000000', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' }

export function exploreStatement(viewerId: string, cursor: Cursor | undefined, offset: number, n: number): SQL {
  const at = cursor ?? TOP
  return sql`select p.id as post_id, ${micros(sql.raw('p.created_at'))} as at, null::uuid as reposted_by
    from posts p
    where p.visibility = 'public' and p.reply_to is null
      and (p.created_at, p.id) < (${cursorTime(at)}, ${at.id}::uuid)
      and ${visibleToAnyone('p')} and ${visibleToAlias(viewerId, 'p')} and ${feedListedFor(viewerId, 'p')}
    order by p.created_at desc, p.id desc
    offset ${offset} limit ${n}`
}

/** Up to `n` Explore keys strictly below `cursor` (or from the top), after skipping `offset`, newest first. */
export function exploreKeys(db: Database, viewerId: string, cursor: Cursor | undefined, offset: number, n: number): Promise<FeedKey[]> {
  return selectPrepared<FeedKey>(db, 'wren_explore_v1', exploreStatement(viewerId, cursor, offset, n))
}
