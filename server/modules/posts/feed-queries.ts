import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { selectPrepared } from '../../db/prepared'
import type { Cursor } from '../../lib/cursor'
import { feedListedFor, reposterShown, visibleToAlias } from '../visibility/visibility'

/**
 * Feed timelines: the home feed and list timelines (docs/product.md, "Lists"), one machinery for both. A timeline is
 * read from a *circle* of members: for the home feed the viewer and the members they follow, for a list its members.
 * Everything else (the rules below, visibility, blocks, mutes, keyset, plans) is the same statement with the circle
 * swapped, so a list timeline shows exactly what the home feed would if the viewer followed the list's members and
 * only them.
 *
 * The home feed: the viewer's own posts, posts of the members they follow, and reposts by the viewer and the
 * members they follow, newest first, as keys (post, time, reposter) that the caller hydrates.
 *
 * Rules (decided here, once):
 * - A feed item is positioned at its post's creation time, or at the repost's time for a repost.
 * - A post appears once. If its author is the viewer or someone they follow, it is there as itself and reposts of
 *   it are ignored; otherwise it is there through the *earliest* repost by the viewer or a followee, with
 *   `repostedBy` that member. "Earliest" keeps items still: a later repost of something already in the feed never
 *   moves it, so paging down while others keep reposting yields no duplicates and no gaps.
 * - Replies appear when they answer the viewer or someone the viewer follows (a conversation among people the
 *   viewer knows), not when they answer strangers; those stay on the replier's profile (Replies tab). The viewer's
 *   own replies always appear.
 * - Visibility is applied to every item (visibility/visibility.ts); only public posts can be reposted anyway. So are the
 *   viewer's blocked keywords and domains, and their mutes: posts by muted members, reposts made by them, posts
 *   matching muted keywords or domains (`feedListedFor`); the viewer's own posts always stay.
 * - A repost is an item only when its reposter is shown to the viewer (`reposterShown`): not muted, no block either
 *   way, and a private reposter only to its approved followers. A list may hold members the viewer cannot see (a
 *   private account they do not follow, someone who blocked them): their own posts are left out by visibility, their
 *   reposts by this.
 *
 * Keyset: items are ordered by (time, post id) descending and a page continues strictly below the cursor's
 * (time, post id). A post created after the first page was read sorts above every cursor, so it can never slip into
 * a later page or push an item from one page to the next.
 *
 * Two plans, chosen by how many accounts the viewer follows:
 * - per-source (`lateral`): for each followee (and the viewer), the newest `n` matching posts and reposts through
 *   posts_author_created_idx / reposts_user_created_idx, merged. Cost grows with followees x n, so it suits members
 *   following few accounts; for 2,000 followees it reads ~40k index entries and heap rows.
 * - global scan (`scan`): walk all posts (posts_created_idx) and reposts (reposts_created_idx) newest first,
 *   keeping those whose author (reposter) is in a hashed set of followees. Cost grows with 1 / (share of recent
 *   posts written by followees), which is high for members following many active accounts. The walk is capped at
 *   SCAN_WINDOW entries; if the window runs out before `n` items are found (followees who rarely post), the
 *   per-source plan answers instead, in the same statement (a one-time filter: it only runs when needed).
 * Both are exact; only their cost differs. Both run as named prepared statements (db/prepared.ts): planning this
 * statement costs more than executing it.
 */

export interface FeedKey {
  post_id: string
  /** Cursor microseconds of the item's time. */
  at: string
  reposted_by: string | null
}

/** Below this many followees the per-source plan is used; from it on, the global scan with fallback. */
export const SCAN_MIN_FOLLOWING = 300
/** Most index entries the global scan reads (per table) before the per-source plan takes over. */
export const SCAN_WINDOW = 6000

/** A position above every real item, so the first page uses the same statement (and plan) as the others. */
const TOP: Cursor = { at: '9000000000000000', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' }

/** An item time from cursor microseconds (text). */
const toTime = (at: string) => sql`(timestamptz 'epoch' + ${at}::bigint * interval '1 microsecond')`

/** Whose timeline: the viewer's home feed, or a list's (members only; the viewer is not added). */
export type FeedSource = { kind: 'home' } | { kind: 'list'; listId: string }

const HOME: FeedSource = { kind: 'home' }

interface Params {
  viewer: string
  before: SQL
  /** Only items at or after this time (a cached timeline's top read again); none: down to the end of the feed. */
  since: SQL | undefined
  n: number
  source: FeedSource
}

/** The lower bound on an item's time, when there is one (empty otherwise: the statement's text is the unbounded one). */
const notBefore = (column: string, p: Params) => (p.since ? sql` and ${sql.raw(column)} >= ${p.since}` : sql``)

/** In the circle: the viewer or a followee (home); a member of the list (list). */
const isFollowee = (column: SQL, p: Params) =>
  p.source.kind === 'home'
    ? sql`(${column} = ${p.viewer}::uuid or ${column} in (select uid from circle))`
    : sql`${column} in (select uid from circle)`

/** Not a reply; or the viewer's own; or an answer to the viewer or a followee. */
const replyRule = (alias: string, p: Params) => sql`(${sql.raw(alias)}.reply_to is null
  or ${sql.raw(alias)}.author_id = ${p.viewer}::uuid
  or ${isFollowee(sql.raw(`${alias}.reply_to_author_id`), p)})`

/**
 * No earlier repost of the same post by the viewer or a followee shown to them (the earliest one is the feed item; a
 * repost by a muted or hidden reposter is no item, so the next one brings the post).
 */
const earliestRepost = (r: string, p: Params) => sql`not exists (
  select 1 from reposts r2
  where r2.post_id = ${sql.raw(r)}.post_id
    and (r2.created_at, r2.user_id) < (${sql.raw(r)}.created_at, ${sql.raw(r)}.user_id)
    and ${isFollowee(sql.raw('r2.user_id'), p)} and ${reposterShown(p.viewer, sql.raw('r2.user_id'))})`

const ctes = (p: Params) =>
  p.source.kind === 'home'
    ? sql`
  circle as materialized (select followee_id as uid from follows where follower_id = ${p.viewer}),
  sources as materialized (select uid from circle union all select ${p.viewer}::uuid)`
    : sql`
  circle as materialized (select user_id as uid from list_members where list_id = ${p.source.listId}::uuid),
  sources as materialized (select uid from circle)`

const originalsPerSource = (p: Params) => sql`
  select p.id as post_id, p.created_at as ts, null::uuid as reposted_by
  from sources s cross join lateral (
    select p.id, p.created_at from posts p
    where p.author_id = s.uid and (p.created_at, p.id) < ${p.before}${notBefore('p.created_at', p)}
      and ${replyRule('p', p)} and ${visibleToAlias(p.viewer, 'p')} and ${feedListedFor(p.viewer, 'p')}
    order by p.created_at desc, p.id desc
    limit ${p.n}) p`

const repostsPerSource = (p: Params) => sql`
  select r.post_id, r.created_at as ts, r.user_id as reposted_by
  from sources s cross join lateral (
    select r.post_id, r.created_at, r.user_id from reposts r join posts p on p.id = r.post_id
    where r.user_id = s.uid and (r.created_at, r.post_id) < ${p.before}${notBefore('r.created_at', p)}
      and not ${isFollowee(sql.raw('p.author_id'), p)}
      and ${visibleToAlias(p.viewer, 'p')} and ${feedListedFor(p.viewer, 'p')}
      and ${reposterShown(p.viewer, sql.raw('r.user_id'))} and ${earliestRepost('r', p)}
    order by r.created_at desc, r.post_id desc
    limit ${p.n}) r`

const originalsScan = (p: Params) => sql`
  select p.id as post_id, p.created_at as ts, null::uuid as reposted_by
  from (select p0.id, p0.author_id, p0.visibility, p0.reply_to, p0.reply_to_author_id, p0.content, p0.created_at
        from posts p0 where (p0.created_at, p0.id) < ${p.before}${notBefore('p0.created_at', p)}
        order by p0.created_at desc, p0.id desc limit ${SCAN_WINDOW}) p
  where ${isFollowee(sql.raw('p.author_id'), p)}
    and ${replyRule('p', p)} and ${visibleToAlias(p.viewer, 'p')} and ${feedListedFor(p.viewer, 'p')}
  order by p.created_at desc, p.id desc
  limit ${p.n}`

const repostsScan = (p: Params) => sql`
  select r.post_id, r.created_at as ts, r.user_id as reposted_by
  from (select r0.post_id, r0.user_id, r0.created_at
        from reposts r0 where (r0.created_at, r0.post_id) < ${p.before}${notBefore('r0.created_at', p)}
        order by r0.created_at desc, r0.post_id desc limit ${SCAN_WINDOW}) r
  join posts p on p.id = r.post_id
  where ${isFollowee(sql.raw('r.user_id'), p)}
    and not ${isFollowee(sql.raw('p.author_id'), p)}
    and ${visibleToAlias(p.viewer, 'p')} and ${feedListedFor(p.viewer, 'p')}
      and ${reposterShown(p.viewer, sql.raw('r.user_id'))} and ${earliestRepost('r', p)}
  order by r.created_at desc, r.post_id desc
  limit ${p.n}`

const merge = (p: Params) => sql`
  select post_id, ((extract(epoch from ts) * 1000000)::bigint)::text as at, reposted_by
  from (select * from originals union all select * from shared) items
  order by ts desc, post_id desc
  limit ${p.n}`

function perSourceStatement(p: Params): SQL {
  return sql`with ${ctes(p)},
    originals as (${originalsPerSource(p)}),
    shared as (${repostsPerSource(p)})
    ${merge(p)}`
}

/**
 * With a lower bound the scan's window may hold every row down to it: then its items are all there are, however few
 * (a refreshed top rarely holds `n`), and the per-source plan is not needed. `exhausted` says the window ran out first.
 */
const windowsRead = (p: Params) =>
  p.since
    ? sql`
    o_window as (select count(*) >= ${SCAN_WINDOW} as exhausted from (
      select 1 from posts p0 where (p0.created_at, p0.id) < ${p.before}${notBefore('p0.created_at', p)}
      order by p0.created_at desc, p0.id desc limit ${SCAN_WINDOW}) w),
    r_window as (select count(*) >= ${SCAN_WINDOW} as exhausted from (
      select 1 from reposts r0 where (r0.created_at, r0.post_id) < ${p.before}${notBefore('r0.created_at', p)}
      order by r0.created_at desc, r0.post_id desc limit ${SCAN_WINDOW}) w),`
    : sql``

/** Whether the scan answers alone: it found `n` items, or (with a lower bound) read everything down to it. */
const scanAnswers = (scan: 'o' | 'r', p: Params) =>
  p.since
    ? sql`((select count(*) from ${sql.raw(scan)}_scan) >= ${p.n} or not (select exhausted from ${sql.raw(scan)}_window))`
    : sql`(select count(*) from ${sql.raw(scan)}_scan) >= ${p.n}`

const perSourceNeeded = (scan: 'o' | 'r', p: Params) =>
  p.since ? sql`not ${scanAnswers(scan, p)}` : sql`(select count(*) from ${sql.raw(scan)}_scan) < ${p.n}`

function scanStatement(p: Params): SQL {
  return sql`with ${ctes(p)},
    o_scan as materialized (${originalsScan(p)}),
    r_scan as materialized (${repostsScan(p)}),${windowsRead(p)}
    originals as (
      select * from o_scan where ${scanAnswers('o', p)}
      union all
      select * from (${originalsPerSource(p)}) o where ${perSourceNeeded('o', p)}),
    shared as (
      select * from r_scan where ${scanAnswers('r', p)}
      union all
      select * from (${repostsPerSource(p)}) r where ${perSourceNeeded('r', p)})
    ${merge(p)}`
}

export type FeedPlan = 'per-source' | 'scan'

/** By the size of the circle: the viewer's following count, or a list's member count. */
export function feedPlanFor(circleSize: number): FeedPlan {
  return circleSize >= SCAN_MIN_FOLLOWING ? 'scan' : 'per-source'
}

/** One name per statement shape (db/prepared.ts): a name's text never changes within a process. */
const STATEMENT_NAMES: Record<FeedSource['kind'], Record<FeedPlan, string>> = {
  home: { scan: 'wren_feed_scan_v7', 'per-source': 'wren_feed_per_source_v7' },
  list: { scan: 'wren_list_scan_v2', 'per-source': 'wren_list_per_source_v2' },
}
/** The same statements with a lower bound on the items' time (`since`). */
const SINCE_STATEMENT_NAMES: Record<FeedSource['kind'], Record<FeedPlan, string>> = {
  home: { scan: 'wren_feed_scan_since_v1', 'per-source': 'wren_feed_per_source_since_v1' },
  list: { scan: 'wren_list_scan_since_v1', 'per-source': 'wren_list_per_source_since_v1' },
}

/**
 * Up to `n` feed items strictly below `cursor` (or from the top), newest first. Ask for one more than the page size
 * to learn whether another page exists. With `since` (cursor microseconds), only items at or after that time: the
 * same items the unbounded statement gives above it, with the same rules, which is how a cached timeline's top is
 * read again (cache/feed-timelines.ts).
 */
export async function feedKeys(
  db: Database,
  viewerId: string,
  cursor: Cursor | undefined,
  n: number,
  plan: FeedPlan,
  source: FeedSource = HOME,
  since?: string,
): Promise<FeedKey[]> {
  const name = (since === undefined ? STATEMENT_NAMES : SINCE_STATEMENT_NAMES)[source.kind][plan]
  return selectPrepared<FeedKey>(db, name, feedStatement(viewerId, cursor, n, plan, source, since))
}

/** The statement text for a plan, for EXPLAIN in benchmarks and tests. */
export function feedStatement(
  viewerId: string,
  cursor: Cursor | undefined,
  n: number,
  plan: FeedPlan,
  source: FeedSource = HOME,
  since?: string,
): SQL {
  const at = cursor ?? TOP
  const params: Params = {
    viewer: viewerId,
    before: sql`(${toTime(at.at)}, ${at.id}::uuid)`,
    since: since === undefined ? undefined : toTime(since),
    n,
    source,
  }
  return plan === 'scan' ? scanStatement(params) : perSourceStatement(params)
}
