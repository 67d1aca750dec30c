import { LIMITS } from '../../../../src/api/contract/limits'
import { Lru, type LruStats } from '../../../cache/lru'
import { Versions } from '../../../cache/versions'
import type { Cursor } from '../../../lib/cursor'
import type { FeedKey } from '../feed-queries'

/**
 * Four default pages and one more (to know whether a fifth exists): page 1 and the cursor pages 2-4 a reading session
 * asks for next are all answered from one entry (docs/posts-and-feed.md, "Caches").
 */
export const TIMELINE_ITEMS = 4 * LIMITS.pageSize + 1
// Exactness comes from invalidation; the TTL is only the safety net for a lost cross-process message, as the
// sessions' is. At 5 s / 10 s a Zipf-drawn member back after ten seconds found their timeline gone,
// and every hot member's timeline was reloaded every 5 s whether anything had changed or not.
export const TIMELINE_TTL_MS = 30_000
/** Past TIMELINE_TTL_MS a timeline is served while it reloads in the background; past this it is gone. */
export const TIMELINE_MAX_AGE_MS = 60_000
export const TIMELINE_MAX = 10_000
/**
 * Total weight of the cached timelines: one unit per key and per indexed source, each ~100-150 bytes (a key is an
 * object with two strings; a source is an id in the entry and in the reverse index). A member following 2,000 with a
 * full timeline weighs 2,001 + 81; one following 20, 21 + 81. 600,000 units is ~60-90 MB.
 */
export const TIMELINE_MAX_WEIGHT = 600_000
/**
 * How far below a timeline's top key its top is read again. An item's time is its transaction's start (created_at
 * defaults to now()), so an item that began before the top one but committed after the timeline was read sorts just
 * below the top; any transaction that takes less than this from start to commit is found (the post search's fresh
 * read looks back as far, for the same reason: posts/search-results.ts).
 */
export const TOP_OVERLAP_MICROS = 5_000_000n

export interface Timeline {
  /** The first TIMELINE_ITEMS keys of the member's feed (fewer when the feed is shorter: then all of it). */
  keys: FeedKey[]
  /** The member and everyone they follow: whose activity changes this timeline. */
  sources: string[]
  /**
   * A source added an item (a post, reply or repost) since `keys` were read: they are exact below
   * `TimelineCache.refreshFrom(keys)`, and the top must be read again before they are served (feed-timelines.ts).
   */
  topStale?: boolean
}

/**
 * The first keys of each member's home feed, per member (visibility is baked into them). Exact within one process:
 * a post, reply or repost by a source marks the timelines that source feeds as needing their top read again (a
 * reverse index, source -> cached members), and they are not served before it is; an un-repost by a source evicts
 * them; a deletion evicts every timeline listing a deleted post (reposts put posts in feeds of non-followers of the
 * author); a member's follow or unfollow (or block, or mute) evicts their own.
 */
export class TimelineCache {
  /** source (author) -> member -> that member's cached timeline. */
  private readonly bySource = new Map<string, Map<string, Timeline>>()
  private readonly lru: Lru<string, Timeline>
  /**
   * Members' keys and sources' on one clock: a fill is refused when its member changed or a source did anything but
   * add an item (`sourceKey`), and stored with its top stale when a source added one (`addedKey`).
   */
  private readonly versions = new Versions<string>()

  constructor(enabled: boolean, maxEntries = TIMELINE_MAX) {
    this.lru = new Lru({
      versions: this.versions,
      maxEntries: enabled ? maxEntries : 0,
      maxWeight: TIMELINE_MAX_WEIGHT,
      ttlMs: TIMELINE_MAX_AGE_MS,
      refreshMs: TIMELINE_TTL_MS,
      weigh: (t) => t.sources.length + t.keys.length,
      onRemove: (memberId, t) => this.unindex(memberId, t),
    })
  }

  get generation(): number {
    return this.lru.generation
  }

  get stats(): LruStats {
    return this.lru.stats
  }

  get(memberId: string): { value: Timeline; stale: boolean } | undefined {
    return this.lru.lookup(memberId)
  }

  storeIfFresh(memberId: string, timeline: Timeline, generation: number): void {
    // Sources are checked as well as the member: a follower's fill in flight is not indexed yet, so a post by one
    // of their sources meanwhile could not mark it (with one generation per cache any write refused every fill).
    const fresh = this.freshness(memberId, timeline.sources, generation)
    if (fresh === 'changed') return
    if (fresh === 'items added') timeline.topStale = true
    // Indexed first: storing can evict the new entry at once (too heavy), and its removal then unindexes it.
    for (const source of timeline.sources) {
      let members = this.bySource.get(source)
      if (!members) this.bySource.set(source, (members = new Map()))
      members.set(memberId, timeline)
    }
    if (!this.lru.setIfFresh(memberId, timeline, generation)) this.unindex(memberId, timeline)
  }

  /**
   * `base`, the cached timeline of `memberId` with its top stale, with its top read again since `generation`
   * (`keys`): it replaces `base` unless something changed meanwhile that a reread top does not cover (then the
   * next read loads the whole timeline). It keeps the age of `base`: the keys below the top are as old as before,
   * and the TTL still bounds what a lost message left among them.
   */
  storeRefreshed(memberId: string, base: Timeline, keys: FeedKey[], generation: number): Timeline {
    const timeline: Timeline = { keys, sources: base.sources }
    const fresh = this.freshness(memberId, base.sources, generation)
    if (fresh === 'changed' || this.lru.peek(memberId) !== base) return timeline
    if (fresh === 'items added') timeline.topStale = true
    // Re-pointed first, as in storeIfFresh: the swap can evict the entry at once, and its removal unindexes it.
    for (const source of timeline.sources) {
      const members = this.bySource.get(source)
      if (members?.get(memberId) === base) members.set(memberId, timeline)
    }
    this.lru.replace(memberId, base, timeline)
    return timeline
  }

  /**
   * `authorId` added an item at the top of the feeds it is in (a post, reply or repost): the timelines it feeds keep
   * their keys and read their top again before they are next served; fills in flight are stored so marked.
   */
  sourceAdded(authorId: string): void {
    this.versions.changed(addedKey(authorId))
    for (const timeline of this.bySource.get(authorId)?.values() ?? []) timeline.topStale = true
  }

  /** `authorId` did something to the feeds it is in that is not only an item at the top (an un-repost). */
  sourceChanged(authorId: string): void {
    // Fills in flight that list this source are not stored (storeIfFresh), whether or not they are indexed yet.
    this.versions.changed(sourceKey(authorId))
    this.lru.invalidate(authorId)
    for (const memberId of [...(this.bySource.get(authorId)?.keys() ?? [])]) this.lru.invalidate(memberId)
  }

  evictMember(memberId: string): void {
    this.lru.invalidate(memberId)
  }

  /** Every timeline whose key passes `test` goes (list timelines: a list's, or a viewer's). */
  evictWhere(test: (key: string) => boolean): void {
    this.lru.invalidateWhere((key) => test(key))
  }

  /** Every timeline goes (an account turned private or public: visibility is baked into the keys). */
  clear(): void {
    this.lru.clear()
  }

  /**
   * The `wanted` keys strictly after `cursor` (fewer at the end of the feed), when `keys` (a timeline's) hold them
   * all; otherwise undefined (the database answers). Only a cursor equal to a cached key is looked for: that is what
   * a page's `nextCursor` is, and the keys after it in the cached prefix are exactly the feed's keys below it (the
   * keyset order is total and the cached keys are the top of the feed). A timeline shorter than TIMELINE_ITEMS is
   * the whole feed, so it holds every page after its keys.
   */
  static keysAfter(keys: readonly FeedKey[], cursor: Cursor, wanted: number): FeedKey[] | undefined {
    const i = keys.findIndex((k) => k.post_id === cursor.id && k.at === cursor.at)
    if (i < 0) return undefined
    const after = keys.slice(i + 1, i + 1 + wanted)
    return after.length === wanted || keys.length < TIMELINE_ITEMS ? after : undefined
  }

  /**
   * Where a timeline with these keys reads its top again from (cursor microseconds): TOP_OVERLAP_MICROS below its
   * top key, so an item that committed after the keys were read is found though it sorts below the top. Undefined
   * for an empty timeline: everything is read.
   */
  static refreshFrom(keys: readonly FeedKey[]): string | undefined {
    const top = keys[0]
    return top && (BigInt(top.at) - TOP_OVERLAP_MICROS).toString()
  }

  /**
   * `keys` with their top read again: `fresh` (the feed's items at or after `from`, newest first, at most
   * TIMELINE_ITEMS of them) in place of the keys at or after `from`, then the keys below it that `fresh` does not
   * hold. Undefined when the result cannot be told to be the feed's top: `keys` were a full timeline and fewer are
   * left (then "shorter than TIMELINE_ITEMS" would wrongly say "the whole feed"; a reload answers instead).
   */
  static withTop(keys: readonly FeedKey[], fresh: readonly FeedKey[], from: string | undefined): FeedKey[] | undefined {
    if (from === undefined) return [...fresh]
    const bound = BigInt(from)
    const above = new Set(fresh.map((k) => k.post_id))
    const below = keys.filter((k) => BigInt(k.at) < bound && !above.has(k.post_id))
    const merged = [...fresh, ...below].slice(0, TIMELINE_ITEMS)
    return keys.length >= TIMELINE_ITEMS && merged.length < TIMELINE_ITEMS ? undefined : merged
  }

  postsDeleted(ids: readonly string[]): void {
    const gone = new Set(ids)
    this.lru.invalidateWhere((_member, t) => t.keys.some((k) => gone.has(k.post_id)))
  }

  /** What changed since `generation` for a timeline of `memberId` read from `sources`. */
  private freshness(memberId: string, sources: readonly string[], generation: number): Freshness {
    if (!this.lru.unchangedSince(memberId, generation)) return 'changed'
    let added = false
    for (const source of sources) {
      if (!this.versions.unchangedSince(sourceKey(source), generation)) return 'changed'
      if (!added && !this.versions.unchangedSince(addedKey(source), generation)) added = true
    }
    return added ? 'items added' : 'unchanged'
  }

  private unindex(memberId: string, timeline: Timeline): void {
    for (const source of timeline.sources) {
      const members = this.bySource.get(source)
      // Only this very entry: a newer timeline of the same member may already be indexed.
      if (members?.get(memberId) !== timeline) continue
      members.delete(memberId)
      if (members.size === 0) this.bySource.delete(source)
    }
  }
}

type Freshness = 'unchanged' | 'items added' | 'changed'

/** A source's key in the record of changes, apart from the members' own keys (ids, and list:reader keys). */
const sourceKey = (authorId: string) => `source:${authorId}`
/** A source's key for the items it added at the top (`sourceAdded`). */
const addedKey = (authorId: string) => `added:${authorId}`
