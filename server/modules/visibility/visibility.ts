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

export function visibleTo(viewerId: string | SQL, post: PostColumns): SQL {
  return sql`(
    ${post.authorId} = ${viewerId}
    or ((${post.visibility} = 'public'
      or (${post.visibility} = 'followers' and exists (
        select 1 from follows vis_f where vis_f.follower_id = ${viewerId} and vis_f.followee_id = ${post.authorId}))
      or (${post.visibility} = 'mentioned' and exists (
        select 1 from post_mentions vis_m where vis_m.post_id = ${post.id} and vis_m.user_id = ${viewerId})))
      and ${memberVisibleTo(viewerId, post.authorId)})
  )`
}

/**
 * The member is one the viewer may see: no block either way, and a private account only by its approved followers
 * (and itself). The same rule as a post's author (`visibleTo`), for members shown *beside* a post: a reposter
 * (`repostedBy` in feeds, list timelines and profiles, the actors of repost notifications). A repost is part of the
 * reposter's timeline, so it reaches exactly who may read that timeline: showing it to anyone else would tell a
 * stranger what a private account shares, or show a member the doings of someone who blocked them.
 * The viewer is always visible to themselves (hiddenAuthors never lists them).
 */
export function memberVisibleTo(viewerId: string | SQL, member: AnyColumn | SQL): SQL {
  return sql`${member} not in ${hiddenAuthors(viewerId)}`
}

/**
 * A reposter as the viewer's lists show them: visible to the viewer (`memberVisibleTo`) and not muted by them
 * (`notMuted`). A repost by anyone else is no item: the post is left out, or reached through another repost.
 */
export function reposterShown(viewerId: string, reposter: AnyColumn | SQL): SQL {
  return sql`(${memberVisibleTo(viewerId, reposter)} and ${notMuted(viewerId, reposter)})`
}

/**
 * Posts anyone may see, whoever reads: public posts of public accounts. What counts in numbers shown to every member
 * alike (trending hashtags, hashtag search), so that no count reveals a post someone could not read. Hashtag search
 * reads it as the stored `hashtags.public_post_count`, which the database keeps by the same rule in its triggers
 * (hashtags_post_public, migration 0018) and the seed computes the same way (seed/bulk-load.ts, seed/verify.ts): a
 * change to this rule changes those too.
 */
export function visibleToAnyone(alias: string): SQL {
  return sql`(${column(alias, 'visibility')} = 'public'
    and ${column(alias, 'author_id')} not in (select vis_pa.id from users vis_pa where vis_pa.private_account))`
}

/**
 * The authors none of whose posts reach the viewer: a block either way, a private account the viewer does not
 * follow, or a member deleting their account (hidden from the request on, while the job removes their rows). Uncorrelated on purpose: PostgreSQL builds it once per statement (from user_blocks' two indexes and the
 * partial index of private accounts) and probes it as a hash for each post, instead of three index probes per post.
 */
function hiddenAuthors(viewerId: string | SQL): SQL {
  return sql`(
    select vis_hb.blocked_id from user_blocks vis_hb where vis_hb.blocker_id = ${viewerId}
    union all
    select vis_hr.blocker_id from user_blocks vis_hr where vis_hr.blocked_id = ${viewerId}
    union all
    select vis_hp.id from users vis_hp where vis_hp.private_account and vis_hp.id <> ${viewerId}
      and not exists (select 1 from follows vis_hf where vis_hf.follower_id = ${viewerId} and vis_hf.followee_id = vis_hp.id)
    union all
    select vis_hd.id from users vis_hd where vis_hd.deleted_at is not null
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

/** A column of a table alias of raw SQL; the alias is checked, since it is pasted into the statement as is. */
const column = (alias: string, name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`Invalid table alias "${alias}"`)
  return sql.raw(`${alias}.${name}`)
}

/**
 * Raw-SQL form for queries written with a table alias, e.g. `visibleToAlias(viewer, 'p')`; the viewer is an id, or
 * a column when one statement checks many viewers (a batch of likes).
 */
export function visibleToAlias(viewerId: string | SQL, alias: string): SQL {
  return visibleTo(viewerId, {
    id: column(alias, 'id'),
    authorId: column(alias, 'author_id'),
    visibility: column(alias, 'visibility'),
  })
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

/** The member's keyword and domain lists: blocked ones apply wherever posts are listed, muted ones only in feeds. */
type FilterLists =
  | { keywords: 'blocked_keywords'; domains: 'blocked_domains' }
  | { keywords: 'muted_keywords'; domains: 'muted_domains' }

const BLOCKED: FilterLists = { keywords: 'blocked_keywords', domains: 'blocked_domains' }
const MUTED: FilterLists = { keywords: 'muted_keywords', domains: 'muted_domains' }

/**
 * The post's text matches none of the member's keywords of `lists` (whole word or phrase, any case) and links to
 * none of its domains or their subdomains. The two uncorrelated `exists` run once per statement, so a member with an
 * empty list pays nothing per post. Aliases differ per list (l…: blocked, as before; u…: muted) so both fit one query.
 */
function clearOf(viewerId: string, lists: FilterLists, content: SQL): SQL {
  const k = sql.raw(lists.keywords)
  const d = sql.raw(lists.domains)
  const a = sql.raw(lists.keywords === 'blocked_keywords' ? 'l' : 'u')
  return sql`((not exists (select 1 from ${k} ${a}k0 where ${a}k0.user_id = ${viewerId})
        or not exists (
          select 1 from (select ${wordsOf(content)} as words offset 0) ${a}w
          join ${k} ${a}k on ${a}k.user_id = ${viewerId}
          where ${a}k.pattern <> '  ' and position(${a}k.pattern in ${a}w.words) > 0))
      and (not exists (select 1 from ${d} ${a}d0 where ${a}d0.user_id = ${viewerId})
        or position('://' in ${content}) = 0
        or not exists (
          select 1 from regexp_matches(${content}, ${LINK_HOSTS}, 'gi') ${a}m(host)
          join ${d} ${a}d on ${a}d.user_id = ${viewerId}
          where lower(${a}m.host[1]) = ${a}d.domain or right(lower(${a}m.host[1]), length(${a}d.domain) + 1) = '.' || ${a}d.domain)))`
}

/**
 * Whether a post the viewer may see (visibleTo) is also *listed* to them: home feed, replies under a post and
 * profile tabs leave out posts that contain one of the viewer's blocked keywords (whole word or phrase, any case)
 * or link to one of their blocked domains or a subdomain of it (docs/product.md, "Blocks"). The viewer's own posts
 * are always listed.
 */
export function listedFor(viewerId: string, alias: string): SQL {
  return sql`(${column(alias, 'author_id')} = ${viewerId} or ${clearOf(viewerId, BLOCKED, column(alias, 'content'))})`
}

/**
 * `listedFor` plus the viewer's mutes (docs/product.md, "Mutes"), for the timelines mutes apply to: the home feed
 * now, list timelines and notifications later. Leaves out posts by muted members and posts matching muted keywords
 * or domains; the viewer's own posts are always listed. A reposter is checked apart (`reposterShown`). Mutes are one-way:
 * only the muter's lists read them, never the post page, replies, profiles or the muted member's own view.
 */
export function feedListedFor(viewerId: string, alias: string): SQL {
  return sql`(${column(alias, 'author_id')} = ${viewerId}
    or (${clearOf(viewerId, BLOCKED, column(alias, 'content'))}
      and ${notMuted(viewerId, column(alias, 'author_id'))}
      and ${clearOf(viewerId, MUTED, column(alias, 'content'))}))`
}

/**
 * The member is not one the viewer muted. Uncorrelated like `hiddenAuthors`: the set of muted ids is built once per
 * statement (user_mutes' primary-key prefix) and probed as a hash for each post or repost.
 */
export function notMuted(viewerId: string, member: AnyColumn | SQL): SQL {
  return sql`${member} not in (select vis_mu.muted_id from user_mutes vis_mu where vis_mu.muter_id = ${viewerId})`
}

/**
 * Why a post would be left out of the viewer's feed by their mutes, as the post page's notice words it: `@username`
 * of a muted author, else the first muted keyword it contains (as stored), else the first muted domain it links to;
 * null when none applies, and always for the viewer's own posts. Same matching as `feedListedFor`, per post: meant
 * for the few posts of one page.
 */
export function mutedNoticeOf(viewerId: string, alias: string): SQL {
  const author = column(alias, 'author_id')
  const content = column(alias, 'content')
  return sql`(case when ${author} = ${viewerId} then null else coalesce(
    (select '@' || mn_u.username from user_mutes mn_m join users mn_u on mn_u.id = mn_m.muted_id
      where mn_m.muter_id = ${viewerId} and mn_m.muted_id = ${author}),
    (select mn_k.keyword from muted_keywords mn_k
      where mn_k.user_id = ${viewerId} and mn_k.pattern <> '  ' and position(mn_k.pattern in ${wordsOf(content)}) > 0
      order by lower(mn_k.keyword), mn_k.keyword limit 1),
    (select mn_d.domain from muted_domains mn_d
      where mn_d.user_id = ${viewerId} and position('://' in ${content}) > 0 and exists (
        select 1 from regexp_matches(${content}, ${LINK_HOSTS}, 'gi') mn_l(host)
        where lower(mn_l.host[1]) = mn_d.domain or right(lower(mn_l.host[1]), length(mn_d.domain) + 1) = '.' || mn_d.domain)
      order by mn_d.domain limit 1)) end)`
}
