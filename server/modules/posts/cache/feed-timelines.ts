import { CacheLoads, readThroughOne } from '../../../cache/read-through'
import type { Database } from '../../../db/client'
import type { UserRow } from '../../../db/schema'
import type { Cursor } from '../../../lib/cursor'
import { loadFolloweeIds, loadListMemberIds } from '../card-queries'
import { type FeedKey, feedKeys, feedPlanFor, type FeedSource } from '../feed-queries'
import { listTimelineKey, type PostCaches } from './post-caches'
import { TIMELINE_ITEMS, type Timeline, TimelineCache } from './timelines'

/**
 * The keys of a feed page from the cached timelines when they hold them (the home feed per member, a list's per list
 * and reader): the posts service asks here first and runs the feed statement itself only when this answers undefined.
 * A first page up to TIMELINE_ITEMS keys loads the timeline on a miss (any shorter top is a prefix of it: the keyset
 * order is total); a cursor page only uses a timeline already cached (TimelineCache.keysAfter).
 *
 * A timeline whose top is stale (a source added an item since it was read) is never served as it is: its top is
 * read again first, with the feed statement bounded below at TimelineCache.refreshFrom (one statement, the keys of a
 * few seconds), and put in place of the cached keys above that bound (TimelineCache.withTop).
 */
export class FeedTimelines {
  private readonly homeLoads: CacheLoads<Timeline>
  private readonly listLoads: CacheLoads<Timeline>
  /** Rereads of a stale top, shared by concurrent readers as loads are (and, like them, never across a change). */
  private readonly homeRefreshes: CacheLoads<Timeline>
  private readonly listRefreshes: CacheLoads<Timeline>

  constructor(
    private readonly deps: {
      db: Database
      caches: Pick<PostCaches, 'timelines' | 'listTimelines'>
      enabled: boolean
      warn: (message: string, err: unknown) => void
    },
  ) {
    this.homeLoads = new CacheLoads(deps.caches.timelines, deps.enabled)
    this.listLoads = new CacheLoads(deps.caches.listTimelines, deps.enabled)
    this.homeRefreshes = new CacheLoads(deps.caches.timelines, deps.enabled)
    this.listRefreshes = new CacheLoads(deps.caches.listTimelines, deps.enabled)
  }

  /** The `wanted` keys of the member's home feed from the top or after `cursor`, when the cache can give them all. */
  homePage(viewer: UserRow, cursor: Cursor | undefined, wanted: number): Promise<FeedKey[] | undefined> {
    return pageOf((loadOnMiss) => this.home(viewer, loadOnMiss), cursor, wanted)
  }

  /** The same for a list's timeline, read by `viewer` (the caller checked they may). */
  listPage(viewer: UserRow, listId: string, memberCount: number, cursor: Cursor | undefined, wanted: number): Promise<FeedKey[] | undefined> {
    return pageOf((loadOnMiss) => this.list(viewer, listId, memberCount, loadOnMiss), cursor, wanted)
  }

  /** The top TIMELINE_ITEMS keys of the member's feed, with the member and their followees as its sources. */
  private home(viewer: UserRow, loadOnMiss: boolean): Promise<FeedKey[] | undefined> {
    const plan = feedPlanFor(viewer.followingCount)
    const source: FeedSource = { kind: 'home' }
    return this.top(
      {
        cache: this.deps.caches.timelines,
        key: viewer.id,
        loads: this.homeLoads,
        refreshes: this.homeRefreshes,
        read: (since) => feedKeys(this.deps.db, viewer.id, undefined, TIMELINE_ITEMS, plan, source, since),
        sources: async () => [viewer.id, ...(await loadFolloweeIds(this.deps.db, viewer.id))],
        what: 'feed timeline',
      },
      loadOnMiss,
    )
  }

  /** The top keys of this reader's list timeline, with the list's members as its sources. */
  private list(viewer: UserRow, listId: string, memberCount: number, loadOnMiss: boolean): Promise<FeedKey[] | undefined> {
    const plan = feedPlanFor(memberCount)
    const source: FeedSource = { kind: 'list', listId }
    return this.top(
      {
        cache: this.deps.caches.listTimelines,
        key: listTimelineKey(listId, viewer.id),
        loads: this.listLoads,
        refreshes: this.listRefreshes,
        read: (since) => feedKeys(this.deps.db, viewer.id, undefined, TIMELINE_ITEMS, plan, source, since),
        sources: () => loadListMemberIds(this.deps.db, listId),
        what: 'list timeline',
      },
      loadOnMiss,
    )
  }

  private async top(t: TimelineOf, loadOnMiss: boolean): Promise<FeedKey[] | undefined> {
    const load = () =>
      t.loads.run(t.key, async (generation) => {
        const [keys, sources] = await Promise.all([t.read(), t.sources()])
        const timeline: Timeline = { keys, sources }
        t.cache.storeIfFresh(t.key, timeline, generation)
        return timeline
      })
    const hit = t.cache.get(t.key)
    if (hit?.value.topStale) {
      // Past its reload age it is loaded whole (a cursor page then reads PostgreSQL, as on a miss): one statement
      // either way, and the load renews its age.
      if (hit.stale) return loadOnMiss ? (await load()).keys : undefined
      return (await this.refresh(t, hit.value, load)).keys
    }
    // Past its TTL (no invalidation came, so it is most likely still exact): this request gets it while one reload
    // runs behind; the 50 requests waiting on a hot member's expired timeline would otherwise all wait on the query.
    const timeline = await readThroughOne(hit, load, {
      loadOnMiss,
      warn: (err) => this.deps.warn(`could not reload a ${t.what}`, err),
    })
    return timeline?.keys
  }

  /** `base` with its top read again (stored when nothing else changed meanwhile), or loaded whole if need be. */
  private refresh(t: TimelineOf, base: Timeline, load: () => Promise<Timeline>): Promise<Timeline> {
    return t.refreshes.run(t.key, async (generation) => {
      const from = TimelineCache.refreshFrom(base.keys)
      const keys = TimelineCache.withTop(base.keys, await t.read(from), from)
      return keys ? t.cache.storeRefreshed(t.key, base, keys, generation) : load()
    })
  }
}

/** One cached timeline and how to read it. */
interface TimelineOf {
  cache: TimelineCache
  key: string
  loads: CacheLoads<Timeline>
  refreshes: CacheLoads<Timeline>
  /** The feed's top TIMELINE_ITEMS keys; with `since`, only those at or after it. */
  read: (since?: string) => Promise<FeedKey[]>
  sources: () => Promise<string[]>
  what: string
}

async function pageOf(
  top: (loadOnMiss: boolean) => Promise<FeedKey[] | undefined>,
  cursor: Cursor | undefined,
  wanted: number,
): Promise<FeedKey[] | undefined> {
  if (cursor === undefined) return wanted <= TIMELINE_ITEMS ? (await top(true))?.slice(0, wanted) : undefined
  const keys = await top(false)
  return keys && TimelineCache.keysAfter(keys, cursor, wanted)
}
