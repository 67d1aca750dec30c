import { sql } from 'drizzle-orm'
import type { Execute } from './sinks'

/**
 * The seed's promise, checked in SQL against the rows themselves after loading: every denormalised counter equals
 * what it counts, replies name their parent's author, and every id embeds its row's created_at millisecond (the
 * feed's keyset order). Each check counts offending rows; all zeros means consistent.
 */
const checks = {
  usersPostsCount: sql`select count(*)::int as n from users u
    left join (select author_id, count(*) as c from posts group by author_id) p on p.author_id = u.id
    where u.posts_count <> coalesce(p.c, 0)`,
  usersFollowersCount: sql`select count(*)::int as n from users u
    left join (select followee_id, count(*) as c from follows group by followee_id) f on f.followee_id = u.id
    where u.followers_count <> coalesce(f.c, 0)`,
  usersFollowingCount: sql`select count(*)::int as n from users u
    left join (select follower_id, count(*) as c from follows group by follower_id) f on f.follower_id = u.id
    where u.following_count <> coalesce(f.c, 0)`,
  postsLikeCount: sql`select count(*)::int as n from posts p
    left join (select post_id, count(*) as c from likes group by post_id) l on l.post_id = p.id
    where p.like_count <> coalesce(l.c, 0)`,
  postsRepostCount: sql`select count(*)::int as n from posts p
    left join (select post_id, count(*) as c from reposts group by post_id) r on r.post_id = p.id
    where p.repost_count <> coalesce(r.c, 0)`,
  // The stored reply_count counts direct public replies only (schema-posts.ts).
  postsReplyCount: sql`select count(*)::int as n from posts p
    left join (select reply_to, count(*) as c from posts where reply_to is not null and visibility = 'public'
               group by reply_to) r on r.reply_to = p.id
    where p.reply_count <> coalesce(r.c, 0)`,
  // Kept by triggers in the app, computed once after a bulk load (bulk-load.ts).
  hashtagsPostCount: sql`select count(*)::int as n from hashtags h
    left join (select tag, count(*) as c from post_hashtags group by tag) t on t.tag = h.tag
    where h.post_count <> coalesce(t.c, 0)`,
  // The same for the posts anyone may see (`visibleToAnyone`: public posts of public accounts), hashtag search's count.
  hashtagsPublicPostCount: sql`select count(*)::int as n from hashtags h
    left join (select ph.tag, count(*) as c from post_hashtags ph
               join posts p on p.id = ph.post_id join users u on u.id = p.author_id
               where p.visibility = 'public' and not u.private_account group by ph.tag) t on t.tag = h.tag
    where h.public_post_count <> coalesce(t.c, 0)`,
  // Analytics' per-day counters (migration `analytics`, rebuilt after the load) add up, per post, to its likes,
  // reposts and public replies (the rows) and to its view count.
  postDailyStats: sql`select count(*)::int as n from posts p
    left join (select post_id, sum(views) as v, sum(likes) as l, sum(reposts) as r, sum(replies) as c
               from post_daily_stats group by post_id) s on s.post_id = p.id
    left join (select post_id, count(*) as c from likes group by post_id) l on l.post_id = p.id
    left join (select post_id, count(*) as c from reposts group by post_id) r on r.post_id = p.id
    left join (select reply_to, count(*) as c from posts where reply_to is not null and visibility = 'public'
               group by reply_to) c on c.reply_to = p.id
    where (coalesce(s.v, 0), coalesce(s.l, 0), coalesce(s.r, 0), coalesce(s.c, 0))
          <> (p.view_count, coalesce(l.c, 0), coalesce(r.c, 0), coalesce(c.c, 0))`,
  replyParentAuthor: sql`select count(*)::int as n from posts c join posts p on p.id = c.reply_to
    where c.reply_to_author_id <> p.author_id`,
  mentionedWithoutMentions: sql`select count(*)::int as n from posts p
    where p.visibility = 'mentioned' and not exists (select 1 from post_mentions m where m.post_id = p.id)`,
  postIdsEmbedCreatedAt: sql`select count(*)::int as n from posts
    where ('x' || lpad(substr(replace(id::text, '-', ''), 1, 12), 16, '0'))::bit(64)::bigint
          <> floor(extract(epoch from created_at) * 1000)::bigint`,
} as const


/** Offending rows per check; an empty list when everything is consistent. */
export async function verifySeed(execute: Execute): Promise<string[]> {
  const problems: string[] = []
  for (const [name, query] of Object.entries(checks)) {
    const [row] = (await execute(query)) as Array<{ n: number }>
    const offending = Number(row?.n ?? -1)
    if (offending !== 0) problems.push(`${name}: ${offending} rows disagree`)
  }
  return problems
}
