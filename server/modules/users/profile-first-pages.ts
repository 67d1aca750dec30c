import type { Invalidation } from '../../cache/invalidation'
import type { InvalidationTarget } from '../../cache/invalidations'
import type { LruStats } from '../../cache/lru'
import { OwnedPages } from '../../cache/owned-pages'
import type { FeedKey } from '../posts/feed-queries'
import type { ProfileHead } from './queries'

/** What a profile's first page reads from the database for one viewer: the head and the first page's keys. */
export interface ProfileFirstPage {
  head: ProfileHead
  /** Keys of the first page of the tab (one more than the page), or none when the profile is restricted. */
  keys: FeedKey[]
}

/**
 * The head (the member, the viewer's relation to them, the counts) and the first keys of each profile tab a viewer
 * opened, kept in memory for a while: a reading session opens a profile, and without this each opening costs two
 * statements whatever is cached. The posts themselves are presented per request from the post caches, so their
 * counters and the viewer's flags are as fresh as in any list.
 *
 * Dropped (server/cache/owned-pages.ts; pages are tagged with the profile's member) by:
 * - `follows-changed` of the viewer (their follows, requests, blocks, mutes, blocked keywords: what they may see)
 *   and of the member (their following count; a block by or of them);
 * - `member-changed` of the member (their row: name, bio, privacy, avatar, followers count);
 * - `author-activity` of the member (a post, reply, repost or un-repost: the posts tab and the posts count);
 * - `reactions-changed` of the member (their likes tab);
 * - `audience-changed` and `posts-deleted`: everything.
 */
export class ProfileFirstPages implements InvalidationTarget {
  private readonly pages: OwnedPages<ProfileFirstPage>

  constructor(enabled: boolean) {
    this.pages = new OwnedPages({
      enabled,
      maxEntries: 20_000,
      ttlMs: 60_000,
      refreshMs: 30_000,
      tagsOf: (page) => [page.head.user.id],
    })
  }

  get(viewerId: string, variant: string, load: () => Promise<ProfileFirstPage>): Promise<ProfileFirstPage> {
    return this.pages.get(viewerId, variant, load)
  }

  /** What the cache did since it was made (metrics read it at scrape time). */
  get stats(): LruStats {
    return this.pages.stats
  }

  apply(message: Invalidation): void {
    switch (message.kind) {
      case 'follows-changed':
        this.pages.dropOwner(message.userId)
        this.pages.dropTag(message.userId)
        return
      case 'member-changed':
        this.pages.dropTag(message.userId)
        return
      case 'author-activity':
        this.pages.dropTag(message.authorId)
        return
      case 'post-edited':
        // Others' Likes tabs may list it too, and only a narrower audience takes it out of them.
        if (message.audienceChanged) this.pages.clear()
        else this.pages.dropTag(message.authorId)
        return
      case 'reactions-changed':
        this.pages.dropTag(message.userId)
        return
      case 'audience-changed':
      case 'posts-deleted':
      case 'everything-changed':
        this.pages.clear()
        return
      default:
    }
  }
}
