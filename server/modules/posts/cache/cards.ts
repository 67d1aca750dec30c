import { Lru } from '../../../cache/lru'
import type { PostCard } from '../card-queries'

// Counters change through this process (evicted at once) or another (evicted by the bus); the TTL bounds what a
// lost message or another process's view counts can leave stale.
export const CARD_TTL_MS = 60_000
export const CARD_MAX = 50_000

/**
 * Post cards by id, the same for every viewer (visibility is decided before a card is read: only ids a viewer's own
 * query returned are looked up here). Likes, reposts, replies, deletions and flushed views evict the cards they
 * change; nothing updates a card in place, because two writes' evictions can run in any order but their effect is
 * the same.
 */
export class CardCache {
  private readonly lru: Lru<string, PostCard>

  constructor(enabled: boolean) {
    this.lru = new Lru({ maxEntries: enabled ? CARD_MAX : 0, ttlMs: CARD_TTL_MS })
  }

  get generation(): number {
    return this.lru.generation
  }

  /** The cached cards among `ids`, and the ids to load. */
  lookup(ids: readonly string[]): { found: Map<string, PostCard>; missing: string[] } {
    const found = new Map<string, PostCard>()
    const missing: string[] = []
    for (const id of ids) {
      const card = this.lru.get(id)
      if (card) found.set(id, card)
      else missing.push(id)
    }
    return { found, missing }
  }

  storeIfFresh(cards: Iterable<PostCard>, generation: number): void {
    for (const card of cards) this.lru.setIfFresh(card.id, card, generation)
  }

  evict(ids: readonly string[]): void {
    for (const id of ids) this.lru.invalidate(id)
  }
}
