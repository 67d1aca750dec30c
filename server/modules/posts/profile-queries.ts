import { sql, type SQL } from 'drizzle-orm'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, cursorTime } from '../../lib/cursor'
import type { FeedKey } from './feed-queries'
import { listedFor, memberVisibleTo, visibleToAlias } from '../visibility/visibility'

/**
 * The post lists of a profile, newest first, each only what its tab names and only what the viewer may see:
 * - posts: the member's own posts that are not replies, and their reposts of others' posts (`repostedBy` set), at
 *   the repost's time. A repost of one's own post is not listed twice: the post is there already.
 * - replies: the member's replies.
 * - media: the member's posts and replies with at least one image or video.
 * - likes: posts the member liked, most recent like first.
 * None of the viewer's blocked keywords or domains (visibility.ts, `listedFor`). The member's reposts only when the
 * member is visible to the viewer (`memberVisibleTo`), the reposter rule of every list; a profile the viewer may not
 * read lists nothing anyway (users/service.ts), this keeps the rule where the SQL is. Same keyset rule as the feed: (time,
 * post id) strictly below the cursor.
 */
export type ProfileTab = 'posts' | 'replies' | 'media' | 'likes'

const micros = (column: string) => sql.raw(`((extract(epoch from ${column}) * 1000000)::bigint)::text`)

const below = (time: string, id: string, cursor: Cursor | undefined): SQL =>
  cursor ? sql`and (${sql.raw(time)}, ${sql.raw(id)}) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``

function ownPosts(authorId: string, viewerId: string, cursor: Cursor | undefined, where: SQL, limit: number): SQL {
  return sql`select p.id as post_id, ${micros('p.created_at')} as at, null::uuid as reposted_by, p.created_at as ts
    from posts p
    where p.author_id = ${authorId} and ${where} ${below('p.created_at', 'p.id', cursor)}
      and ${visibleToAlias(viewerId, 'p')} and ${listedFor(viewerId, 'p')}
    order by p.created_at desc, p.id desc
    limit ${limit}`
}

function statement(tab: ProfileTab, authorId: string, viewerId: string, cursor: Cursor | undefined, offset: number, n: number): SQL {
  // Each branch must yield everything up to the end of the requested page.
  const reach = offset + n
  const page = sql`order by ts desc, post_id desc offset ${offset} limit ${n}`
  switch (tab) {
    case 'replies':
      return sql`select * from (${ownPosts(authorId, viewerId, cursor, sql`p.reply_to is not null`, reach)}) x ${page}`
    case 'media':
      return sql`select * from (${ownPosts(authorId, viewerId, cursor, sql`p.media_count > 0`, reach)}) x ${page}`
    case 'likes':
      return sql`select * from (
        select l.post_id, ${micros('l.created_at')} as at, null::uuid as reposted_by, l.created_at as ts
        from likes l join posts p on p.id = l.post_id
        where l.user_id = ${authorId} ${below('l.created_at', 'l.post_id', cursor)}
          and ${visibleToAlias(viewerId, 'p')} and ${listedFor(viewerId, 'p')}
        order by l.created_at desc, l.post_id desc
        limit ${reach}) x ${page}`
    case 'posts':
      return sql`select * from (
        (${ownPosts(authorId, viewerId, cursor, sql`p.reply_to is null`, reach)})
        union all
        (select r.post_id, ${micros('r.created_at')} as at, r.user_id as reposted_by, r.created_at as ts
         from reposts r join posts p on p.id = r.post_id
         where r.user_id = ${authorId} and p.author_id <> ${authorId} ${below('r.created_at', 'r.post_id', cursor)}
           and ${memberVisibleTo(viewerId, sql`r.user_id`)} and ${visibleToAlias(viewerId, 'p')} and ${listedFor(viewerId, 'p')}
         order by r.created_at desc, r.post_id desc
         limit ${reach})) x ${page}`
  }
}

export async function profileKeys(
  db: SqlExecutor,
  tab: ProfileTab,
  authorId: string,
  viewerId: string,
  cursor: Cursor | undefined,
  offset: number,
  n: number,
): Promise<FeedKey[]> {
  return selectRows<FeedKey>(db, statement(tab, authorId, viewerId, cursor, offset, n))
}
