import { type AnyColumn, sql, type SQL } from 'drizzle-orm'

/**
 * The one rule for who may see a post, as a SQL predicate every query that returns or touches a post applies:
 * feed, post page, replies, profile tabs, per-viewer reply counts, like and repost targets.
 *
 * - public: every signed-in member;
 * - followers: the author and the members who follow the author;
 * - mentioned: the author and the members the post mentions (post_mentions holds existing members only).
 *
 * - and never across a block, in either direction (docs/product.md, "Blocks"): neither the blocker nor the blocked
 *   member sees the other's posts, whatever their audience;
 * - and a private account's posts, whatever their audience, only by its approved followers (and itself).
 *
 * A post the viewer may not see is answered exactly like a post that does not exist (404 'Post not found').
 * Each audience branch is one primary-key probe (follows_pkey, post_mentions_pkey), and blocks and private accounts
 * are one hash probe into a set built once per statement, so the predicate stays cheap inside scans.
 */

/** The columns of the post being tested, as they are named in the calling query (aliases welcome). */
export interface PostColumns {
  id: AnyColumn | SQL
  authorId: AnyColumn | SQL
  visibility: AnyColumn | SQL
}

export const POST_NOT_FOUND = 'Post not found'

export function visibleTo(viewerId: string, post: PostColumns): SQL {
  return sql`(
    ${post.authorId} = ${viewerId}
    or ((${post.visibility} = 'public'
      or (${post.visibility} = 'followers' and exists (
        select 1 from follows vis_f where vis_f.follower_id = ${viewerId} and vis_f.followee_id = ${post.authorId}))
      or (${post.visibility} = 'mentioned' and exists (
        select 1 from post_mentions vis_m where vis_m.post_id = ${post.id} and vis_m.user_id = ${viewerId})))
      and ${post.authorId} not in ${hiddenAuthors(viewerId)})
  )`
}

/**
 * The authors none of whose posts reach the viewer: a block either way, or a private account the viewer does not
 * follow. Uncorrelated on purpose: PostgreSQL builds it once per statement (from user_blocks' two indexes and the
 * partial index of private accounts) and probes it as a hash for each post, instead of three index probes per post.
 */
function hiddenAuthors(viewerId: string): SQL {
  return sql`(
    select vis_hb.blocked_id from user_blocks vis_hb where vis_hb.blocker_id = ${viewerId}
    union all
    select vis_hr.blocker_id from user_blocks vis_hr where vis_hr.blocked_id = ${viewerId}
    union all
    select vis_hp.id from users vis_hp where vis_hp.private_account and vis_hp.id <> ${viewerId}
      and not exists (select 1 from follows vis_hf where vis_hf.follower_id = ${viewerId} and vis_hf.followee_id = vis_hp.id)
  )`
}

/**
 * True when either member blocked the other: the wall every read and interaction respects (posts, profiles,
 * follow lists, follows, likes, reposts, replies). Two primary-key probes.
 */
export function blockedBetween(a: string | AnyColumn | SQL, b: string | AnyColumn | SQL): SQL {
  return sql`(exists (select 1 from user_blocks vis_b where vis_b.blocker_id = ${a} and vis_b.blocked_id = ${b})
    or exists (select 1 from user_blocks vis_b where vis_b.blocker_id = ${b} and vis_b.blocked_id = ${a}))`
}

/** Raw-SQL form for queries written with a table alias, e.g. `visibleToAlias(viewer, 'p')`. */
export function visibleToAlias(viewerId: string, alias: string): SQL {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`Invalid table alias "${alias}"`)
  const column = (name: string) => sql.raw(`${alias}.${name}`)
  return visibleTo(viewerId, { id: column('id'), authorId: column('author_id'), visibility: column('visibility') })
}

/**
 * Text as words for keyword matching: lowercased, every run of characters that are not letters, digits or `_` made
 * one space, framed by spaces. One fixed pattern, linear in the text; blocked keywords are stored through the same
 * expression (blocks/queries.ts), so `position(pattern in words)` finds whole words and phrases only, with no
 * member-supplied regular expression anywhere.
 */
export function wordsOf(text: AnyColumn | SQL | string): SQL {
  return sql`(' ' || trim(regexp_replace(lower(${text}), '[^[:alnum:]_]+', ' ', 'g')) || ' ')`
}

/** The host of every http(s) link in a post's text, lowercased (the SPA links the same `http(s)://` runs). */
const LINK_HOSTS = sql.raw(`'https?://([[:alnum:].-]+)'`)

/**
 * Whether a post the viewer may see (visibleTo) is also *listed* to them: home feed, replies under a post and
 * profile tabs leave out posts that contain one of the viewer's blocked keywords (whole word or phrase, any case)
 * or link to one of their blocked domains or a subdomain of it (docs/product.md, "Blocks"). The viewer's own posts
 * are always listed. The two uncorrelated `exists` run once per statement, so a member without blocked keywords or
 * domains pays nothing per post.
 */
export function listedFor(viewerId: string, alias: string): SQL {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`Invalid table alias "${alias}"`)
  const column = (name: string) => sql.raw(`${alias}.${name}`)
  return sql`(
    ${column('author_id')} = ${viewerId}
    or ((not exists (select 1 from blocked_keywords lk0 where lk0.user_id = ${viewerId})
        or not exists (
          select 1 from (select ${wordsOf(column('content'))} as words offset 0) lw
          join blocked_keywords lk on lk.user_id = ${viewerId}
          where lk.pattern <> '  ' and position(lk.pattern in lw.words) > 0))
      and (not exists (select 1 from blocked_domains ld0 where ld0.user_id = ${viewerId})
        or position('://' in ${column('content')}) = 0
        or not exists (
          select 1 from regexp_matches(${column('content')}, ${LINK_HOSTS}, 'gi') lm(host)
          join blocked_domains ld on ld.user_id = ${viewerId}
          where lower(lm.host[1]) = ld.domain or right(lower(lm.host[1]), length(ld.domain) + 1) = '.' || ld.domain)))
  )`
}
