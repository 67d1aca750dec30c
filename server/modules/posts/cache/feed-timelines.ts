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
 */
export class FeedTimelines {
  private readonly homeLoads: CacheLoads<Timeline>
  private readonly listLoads: CacheLoads<Timeline>

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
  private async home(viewer: UserRow, loadOnMiss: boolean): Promise<FeedKey[] | undefined> {
    const timelines = this.deps.caches.timelines
    const load = () =>
      this.homeLoads.run(viewer.id, async (generation) => {
        const [keys, followees] = await Promise.all([
          feedKeys(this.deps.db, viewer.id, undefined, TIMELINE_ITEMS, feedPlanFor(viewer.followingCount)),
          loadFolloweeIds(this.deps.db, viewer.id),
        ])
        const timeline = { keys, sources: [viewer.id, ...followees] }
        timelines.storeIfFresh(viewer.id, timeline, generation)
        return timeline
      })
    // Past its TTL (no invalidation came, so it is most likely still exact): this request gets it while one reload
    // runs behind; the 50 requests waiting on a hot member's expired timeline would otherwise all wait on the query.
    const timeline = await readThroughOne(timelines.get(viewer.id), load, {
      loadOnMiss,
      warn: (err) => this.deps.warn('could not reload a feed timeline', err),
    })
    return timeline?.keys
  }

  /** The top keys of this reader's list timeline, with the list's members as its sources. */
  private async list(viewer: UserRow, listId: string, memberCount: number, loadOnMiss: boolean): Promise<FeedKey[] | undefined> {
    const timelines = this.deps.caches.listTimelines
    const key = listTimelineKey(listId, viewer.id)
    const source: FeedSource = { kind: 'list', listId }
    const load = () =>
      this.listLoads.run(key, async (generation) => {
        const [keys, members] = await Promise.all([
          feedKeys(this.deps.db, viewer.id, undefined, TIMELINE_ITEMS, feedPlanFor(memberCount), source),
          loadListMemberIds(this.deps.db, listId),
        ])
        const timeline = { keys, sources: members }
        timelines.storeIfFresh(key, timeline, generation)
        return timeline
      })
    const timeline = await readThroughOne(timelines.get(key), load, {
      loadOnMiss,
      warn: (err) => this.deps.warn('could not reload a list timeline', err),
    })
    return timeline?.keys
  }
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
