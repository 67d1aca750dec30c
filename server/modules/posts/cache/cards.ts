import { Lru } from '../../../cache/lru'
import type { PostBase } from '../present'

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
export class CardCache {
  private readonly lru: Lru<string, PostBase>

  constructor(enabled: boolean) {
    this.lru = new Lru({ maxEntries: enabled ? CARD_MAX : 0, ttlMs: 2 * CARD_TTL_MS, refreshMs: CARD_TTL_MS })
  }

  get generation(): number {
    return this.lru.generation
  }

  /** The cached cards among `ids`, and the ids to load. */
  /** Cached ones (stale ones included: `stale` lists them for a background reload) and the ids to load. */
  lookup(ids: readonly string[]): { found: Map<string, PostBase>; missing: string[]; stale: string[] } {
    const found = new Map<string, PostBase>()
    const missing: string[] = []
    const stale: string[] = []
    for (const id of ids) {
      const hit = this.lru.lookup(id)
      if (!hit) missing.push(id)
      else {
        found.set(id, hit.value)
        if (hit.stale) stale.push(id)
      }
    }
    return { found, missing, stale }
  }

  storeIfFresh(cards: Iterable<PostBase>, generation: number): void {
    for (const card of cards) this.lru.setIfFresh(card.id, card, generation)
  }

  evict(ids: readonly string[]): void {
    for (const id of ids) this.lru.invalidate(id)
  }
}
