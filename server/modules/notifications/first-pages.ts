import type { Invalidation } from '../../cache/invalidation'
import type { InvalidationTarget } from '../../cache/invalidations'
import type { LruStats } from '../../cache/lru'
import { OwnedPages } from '../../cache/owned-pages'
import type { Schemas } from '../../http/handler-types'
import type { NotificationFilter } from './queries'

type NotificationsPage = Schemas['NotificationsPage']

/**
 * The first page of each recipient's notifications (per filter and page size) with their unread count, kept in
 * memory: opening Notifications, and the app's refetch after each realtime hint, is the common read, and on 2 cores
 * its one statement's round trip was most of its cost (p99 40 ms against a 20 ms target).
 *
 * Dropped (server/cache/owned-pages.ts) by what can change a page:
 * - `notifications-changed`: an item of the recipient's was made, joined, undone, forgotten or read (the service
 *   emits it after the write's commit, with the unread-count push);
 * - `follows-changed`: the recipient's follows, blocks or mutes (which items and posts they may see);
 * - `member-changed`: a member shown as an item's latest actor renamed or changed their avatar (pages are tagged
 *   with their actors);
 * - `post-edited`: the post's text changed, on the author's pages and on those showing the author as an actor;
 * - `audience-changed` and `posts-deleted`: a post on someone's page may be hidden or gone (rare: everything goes).
 */
export class NotificationFirstPages implements InvalidationTarget {
  private readonly pages: OwnedPages<NotificationsPage>

  constructor(enabled: boolean) {
    this.pages = new OwnedPages({
      enabled,
      maxEntries: 20_000,
      ttlMs: 60_000,
      refreshMs: 30_000,
      tagsOf: (page) => page.notifications.map((n) => n.from.id),
    })
  }

  get(recipientId: string, filter: NotificationFilter, limit: number, load: () => Promise<NotificationsPage>) {
    return this.pages.get(recipientId, `${filter}\n${limit}`, load)
  }

  /** What the cache did since it was made (metrics read it at scrape time). */
  get stats(): LruStats {
    return this.pages.stats
  }

  apply(message: Invalidation): void {
    switch (message.kind) {
      case 'notifications-changed':
        for (const id of message.recipientIds) this.pages.dropOwner(id)
        return
      case 'follows-changed':
        this.pages.dropOwner(message.userId)
        return
      case 'member-changed':
        this.pages.dropTag(message.userId)
        return
      case 'post-edited':
        // Items show the post's text: the author's own items (likes of it) and those they are the actor of
        // (their reply or mention).
        this.pages.dropOwner(message.authorId)
        this.pages.dropTag(message.authorId)
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
