import type { PostBase } from '../present'
import { ByIdCache } from './by-id'

// Counters change through this process (evicted at once) or another (evicted by the bus); the TTL bounds what a
// lost message or another process's view counts can leave stale: a card older than this is served once more while
// it reloads in the background, and gone at twice this.
export const CARD_TTL_MS = 60_000
export const CARD_MAX = 50_000

/**
 * Post cards by id, already presented (server/modules/posts/present.ts), the same for every viewer (visibility is decided before a card is read: only ids a viewer's own
 * query returned are looked up here). Likes, reposts, replies, deletions and flushed views evict the cards they
 * change; nothing updates a card in place, because two writes' evictions can run in any order but their effect is
 * the same.
 */
export class CardCache extends ByIdCache<PostBase> {
  constructor(enabled: boolean) {
    super(enabled ? CARD_MAX : 0, CARD_TTL_MS)
  }

  evict(ids: readonly string[]): void {
    for (const id of ids) this.lru.invalidate(id)
  }
}
