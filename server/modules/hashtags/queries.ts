import { sql } from 'drizzle-orm'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { visibleToAnyone } from '../visibility/visibility'

// Trending hashtags (GET /posts/trending; docs/product.md "Search"). Only public posts of public accounts in the last
// 24 hours count (`visibleToAnyone`), so a trend never reveals a post someone could not see. Each member counts once per tag, weighted by
// how recently they last used it (e-folding time 6 hours), so a burst rises fast and fades within the day, and one
// account posting a tag a hundred times weighs what one post does. A tag needs at least two members to trend.

export interface TrendRow {
  tag: string
  /** Public posts using the tag in the window. */
  posts: number
}

export const TREND_WINDOW_HOURS = 24
export const TREND_DECAY_HOURS = 6
export const TREND_MIN_AUTHORS = 2

export async function trendingTags(db: SqlExecutor, limit: number): Promise<TrendRow[]> {
  const window = `${TREND_WINDOW_HOURS} hours`
  return selectRows<TrendRow>(
    db,
    sql`with uses as (
          select h.tag, p.author_id, count(*) as posts, max(p.created_at) as last_at
          from posts p
          join post_hashtags h on h.post_id = p.id
          where p.created_at > now() - ${window}::interval
            and ${visibleToAnyone('p')}
          group by h.tag, p.author_id
        )
        select tag, sum(posts)::int as posts
        from uses
        group by tag
        having count(*) >= ${TREND_MIN_AUTHORS}
        order by sum(exp(-extract(epoch from now() - last_at) / ${TREND_DECAY_HOURS * 3600})) desc, sum(posts) desc, tag
        limit ${limit}`,
  )
}

export interface HashtagRow {
  id: string
  tag: string
  /** Posts anyone may see that use the tag (`visibleToAnyone`): the stored `hashtags.public_post_count`. */
  post_count: number
  /** The keyset cursor's `at`: the post count (the order is most used first, then the id). */
  at: string
}

/**
 * Hashtags starting with `prefix` (lowercased, LIKE wildcards escaped by the caller), most used first, counting the
 * rule of trends: only posts anyone may see (public posts of public accounts). The answer is the same for every
 * member, so it may not count a followers-only post or a private account's: a stranger would learn that a tag is in
 * use, and how much, by people they cannot read. A tag only such posts use is left out.
 *
 * The count is the stored `hashtags.public_post_count`, kept exact by triggers (migration 0018) in the transaction
 * of every post, deletion, visibility or privacy change it depends on, so a search reads one hashtags row per
 * candidate (hashtags_tag_pattern_idx) and never the posts themselves, however many posts a tag has.
 */
export async function hashtagsStartingWith(
  db: SqlExecutor,
  prefix: string,
  cursor: { at: string; id: string } | undefined,
  offset: number,
  limit: number,
): Promise<HashtagRow[]> {
  return selectRows<HashtagRow>(
    db,
    // The cursor's count as bigint: a cursor carries any number up to what server/lib/cursor.ts allows, past int.
    sql`select id, tag, public_post_count as post_count, public_post_count::text as at
        from hashtags
        where tag like ${`${prefix}%`} and public_post_count > 0
          ${cursor ? sql`and (public_post_count, id) < (${cursor.at}::bigint, ${cursor.id}::uuid)` : sql``}
        order by public_post_count desc, id desc
        offset ${offset} limit ${limit}`,
  )
}
