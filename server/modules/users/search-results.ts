import type { Invalidation } from '../../cache/invalidation'
import type { InvalidationTarget } from '../../cache/invalidations'
import { Lru, type LruStats } from '../../cache/lru'
import { OwnedPages } from '../../cache/owned-pages'
import { SingleFlight } from '../../cache/single-flight'
import type { Database } from '../../db/client'
import type { Schemas } from '../../http/handler-types'
import type { Cursor } from '../../lib/cursor'
import {
  followeeIds,
  FOLLOWERS_SPAN,
  type MemberMatch,
  type MemberMatchSet,
  memberMatches,
  memberRows,
  membersChangedSince,
  suggestedUsers,
  suggestionRows,
  type UserSearchRow,
} from './search-queries'

/**
 * Member search and "Who to Follow" through short-lived shared reads (docs/product.md, "Search"), with the answers
 * `searchUserPage` and `suggestedUsers` give:
 *
 * - who matches a search is the same for every viewer, so it is read once per TTL (a two-letter search reads every
 *   display name: 12 ms for 20,000 members); each request adds the members who joined or changed their name since
 *   (users_updated_at_idx), orders the matches for the viewer (the people they follow first) and checks just one
 *   page's members against blocks, reading their rows;
 * - suggestions cost a look at friends of friends (10 ms): the candidates are kept per viewer for a minute and each
 *   request leaves out, in one small read, whom the viewer has followed, asked, muted or blocked since;
 * - a searcher's first page (the answer as typed: matches and suggestions) is kept for 15 s per viewer, query and
 *   page size (`firstPages`): typing, erasing and retyping asks the same again, and each answer above still cost
 *   three statements. It is dropped when the viewer's follows, requests, blocks or mutes change (`follows-changed`),
 *   and all of them when any member joins or changes their row (`member-changed`: a new name may match any query,
 *   a new follower count moves the order).
 */

const MATCH_TTL_MS = 15_000
const MATCH_MAX = 500
/** Matches held over every search: a two-letter search can match a third of the members. */
const MATCH_MAX_WEIGHT = 500_000
const SUGGESTION_TTL_MS = 60_000
const SUGGESTION_MAX = 10_000
/** Candidates kept per viewer: more than shown, so following a few does not empty the list. */
const SUGGESTION_POOL = 30
const FIRST_PAGE_TTL_MS = 15_000
const FIRST_PAGE_MAX = 20_000
const FOLLOWEES_TTL_MS = 60_000
const FOLLOWEES_MAX = 10_000
/** Followee ids held over every searcher (a member following 2,000 weighs 2,000). */
const FOLLOWEES_MAX_WEIGHT = 500_000
/** Members may commit a little after the time they carry: the fresh read looks this much further back. */
const FRESH_OVERLAP_MICROS = 5_000_000n

interface Ordered {
  id: string
  /** The order key of searchUserPage (orderKey): exact in a double, below 2^53. */
  key: number
}

const before = (a: Ordered, b: Ordered) => a.key - b.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** The shared order of a match set, before any viewer: rank, then the most followed, then id. */
const sharedOrder = (a: MemberMatch, b: MemberMatch) =>
  a.rank - b.rank || b.followers - a.followers || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** The first index of `sorted` (ascending by `before`) that comes after `item`. */
function firstAfter(sorted: readonly Ordered[], item: Ordered): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (before(sorted[mid]!, item) <= 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

const keyOf = (m: MemberMatch, followed: ReadonlySet<string>) =>
  (m.rank * 2 + (followed.has(m.id) ? 0 : 1)) * FOLLOWERS_SPAN + (FOLLOWERS_SPAN - 1 - m.followers)

/**
 * The viewer's order of a match set in one pass, without sorting: within each rank the shared order already sorts
 * by followers, so the viewer's order is each rank's followed members, then the rest, both in the shared order.
 * A two-letter search matches thousands of members; sorting them per request was the request's largest cost.
 */
function viewerOrder(items: readonly MemberMatch[], skip: ReadonlySet<string>, followed: ReadonlySet<string>): Ordered[] {
  const ordered: Ordered[] = []
  let rest: Ordered[] = []
  let rank = -1
  for (const m of items) {
    if (m.rank !== rank) {
      for (const r of rest) ordered.push(r)
      rest = []
      rank = m.rank
    }
    if (skip.has(m.id)) continue
    const item = { id: m.id, key: keyOf(m, followed) }
    if (followed.has(m.id)) ordered.push(item)
    else rest.push(item)
  }
  for (const r of rest) ordered.push(r)
  return ordered
}

export class MemberSearchCaches implements InvalidationTarget {
  private readonly matches: Lru<string, MemberMatchSet>
  private readonly matchLoads: SingleFlight<string, MemberMatchSet>
  private readonly suggestions: Lru<string, string[]>
  private readonly suggestionLoads: SingleFlight<string, string[]>
  /** Whom each recent searcher follows (their order puts those first); dropped when their follows change. */
  private readonly followees: Lru<string, ReadonlySet<string>>
  private readonly followeeLoads: SingleFlight<string, ReadonlySet<string>>
  /** Whole first answers, per viewer (`UserService.search` builds them). */
  readonly firstPages: OwnedPages<Schemas['UserSearchResponse']>

  constructor(readonly enabled: boolean) {
    this.firstPages = new OwnedPages({
      enabled,
      maxEntries: FIRST_PAGE_MAX,
      ttlMs: FIRST_PAGE_TTL_MS,
      refreshMs: FIRST_PAGE_TTL_MS,
    })
    this.matches = new Lru({
      maxEntries: enabled ? MATCH_MAX : 0,
      ttlMs: MATCH_TTL_MS,
      maxWeight: MATCH_MAX_WEIGHT,
      weigh: (set) => Math.max(1, set.items.length),
    })
    this.matchLoads = new SingleFlight(enabled)
    this.suggestions = new Lru({ maxEntries: enabled ? SUGGESTION_MAX : 0, ttlMs: SUGGESTION_TTL_MS })
    this.suggestionLoads = new SingleFlight(enabled)
    this.followees = new Lru({
      maxEntries: enabled ? FOLLOWEES_MAX : 0,
      ttlMs: FOLLOWEES_TTL_MS,
      maxWeight: FOLLOWEES_MAX_WEIGHT,
      weigh: (set) => Math.max(1, set.size),
    })
    this.followeeLoads = new SingleFlight(enabled)
  }

  /** What each of its caches did since it was made (metrics read them at scrape time). */
  get stats(): { matches: LruStats; suggestions: LruStats; followees: LruStats; firstPages: LruStats } {
    return {
      matches: this.matches.stats,
      suggestions: this.suggestions.stats,
      followees: this.followees.stats,
      firstPages: this.firstPages.stats,
    }
  }

  apply(message: Invalidation): void {
    // A follow, unfollow, accepted request, block or mute of theirs (the same message the feed's caches hear).
    if (message.kind === 'follows-changed') {
      this.followees.invalidate(message.userId)
      this.firstPages.dropOwner(message.userId)
    }
    if (message.kind === 'member-changed') this.firstPages.clear()
    if (message.kind === 'everything-changed') {
      for (const cache of [this.matches, this.suggestions, this.followees, this.firstPages]) cache.clear()
    }
  }

  /** One page of members matching `needle` for the viewer, ordered and cut as `searchUserPage`. */
  async page(
    db: Database,
    viewerId: string,
    needle: string,
    cursor: Cursor | undefined,
    offset: number,
    limit: number,
  ): Promise<UserSearchRow[]> {
    const [set, followed] = await Promise.all([
      this.held(this.matches, this.matchLoads, needle, async () => {
        const loaded = await memberMatches(db, needle)
        return { ...loaded, items: loaded.items.sort(sharedOrder) }
      }),
      this.held(this.followees, this.followeeLoads, viewerId, async () => new Set(await followeeIds(db, viewerId))),
    ])
    const since = (BigInt(set.builtAt) - FRESH_OVERLAP_MICROS).toString()
    const changed = await membersChangedSince(db, needle, since)
    const ordered = viewerOrder(set.items, new Set(changed.map((c) => c.id)), followed)
    // Members who joined or changed since the set was read: few, each put in its place.
    for (const c of changed) {
      if (!c.matches) continue
      const item = { id: c.id, key: keyOf(c, followed) }
      ordered.splice(firstAfter(ordered, item), 0, item)
    }
    const start = cursor ? firstAfter(ordered, { id: cursor.id, key: Number(cursor.at) }) : 0

    const wanted = offset + limit
    const chunk = Math.max(40, wanted * 2)
    const found: UserSearchRow[] = []
    for (let read = start; read < ordered.length && found.length < wanted; read += chunk) {
      const next = ordered.slice(read, read + chunk)
      const rows = new Map((await memberRows(db, viewerId, needle, next.map((m) => m.id))).map((r) => [r.id, r]))
      for (const m of next) {
        const row = rows.get(m.id)
        if (row) found.push({ ...row, at: String(m.key) })
      }
    }
    return found.slice(offset, offset + limit)
  }

  /** Up to `limit` members to suggest to the viewer, as `suggestedUsers`. */
  async suggested(db: Database, viewerId: string, limit: number): Promise<UserSearchRow[]> {
    const ids = await this.held(this.suggestions, this.suggestionLoads, viewerId, async () =>
      (await suggestedUsers(db, viewerId, SUGGESTION_POOL)).map((r) => r.id))
    const rows = new Map((await suggestionRows(db, viewerId, ids)).map((r) => [r.id, r]))
    return ids.flatMap((id) => rows.get(id) ?? []).slice(0, limit)
  }

  private async held<V>(lru: Lru<string, V>, loads: SingleFlight<string, V>, key: string, load: () => Promise<V>): Promise<V> {
    const value = lru.get(key)
    if (value !== undefined) return value
    return loads.run(key, async () => {
      const generation = lru.generation
      const loaded = await load()
      lru.setIfFresh(key, loaded, generation)
      return loaded
    })
  }
}
