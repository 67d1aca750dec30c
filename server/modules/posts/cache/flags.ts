import { Lru, type LruStats } from '../../../cache/lru'
import type { ViewerFlags } from '../card-queries'

export const FLAGS_TTL_MS = 60_000
export const FLAGS_MAX_VIEWERS = 2_000
export const FLAGS_MAX_POSTS_PER_VIEWER = 200

/**
 * Each viewer's own state of the posts they were shown: liked, reposted, and how many non-public replies they may
 * see. Keyed by viewer first, so nothing of one member's visibility can answer another's. A change drops the whole
 * map of the viewers it concerns (their next page reloads its flags in one query): simpler to keep exact than
 * patching entries, and changes are rare next to reads.
 */
export class FlagCache {
  private readonly lru: Lru<string, Map<string, ViewerFlags>>

  constructor(private readonly enabled: boolean) {
    this.lru = new Lru({ maxEntries: enabled ? FLAGS_MAX_VIEWERS : 0, ttlMs: 2 * FLAGS_TTL_MS, refreshMs: FLAGS_TTL_MS })
  }

  get generation(): number {
    return this.lru.generation
  }

  get stats(): LruStats {
    return this.lru.stats
  }

  /** As CardCache.lookup: a viewer's map past FLAGS_TTL_MS makes all its hits stale (reloaded in the background). */
  lookup(
    viewerId: string,
    ids: readonly string[],
  ): { found: Map<string, ViewerFlags>; missing: string[]; stale: string[] } {
    const hit = this.lru.lookup(viewerId)
    const cached = hit?.value
    const found = new Map<string, ViewerFlags>()
    const missing: string[] = []
    for (const id of ids) {
      const flags = cached?.get(id)
      if (flags) found.set(id, flags)
      else missing.push(id)
    }
    return { found, missing, stale: hit?.stale ? [...found.keys()] : [] }
  }

  /** Every viewer's map (an account turned private or public). */
  clear(): void {
    this.lru.clear()
  }

  storeIfFresh(viewerId: string, flags: ReadonlyMap<string, ViewerFlags>, generation: number): void {
    if (!this.enabled || !this.lru.unchangedSince(viewerId, generation)) return
    const hit = this.lru.lookup(viewerId)
    let cached = hit?.value
    if (!cached || hit?.stale) {
      // A stale map is replaced by a copy, which restarts its age (adding to it in place would leave it stale).
      cached = new Map(cached)
      if (!this.lru.setIfFresh(viewerId, cached, generation)) return
    }
    for (const [id, f] of flags) {
      cached.set(id, f)
      // Oldest first out: Map iterates in insertion order.
      if (cached.size > FLAGS_MAX_POSTS_PER_VIEWER) {
        const oldest = cached.keys().next()
        if (!oldest.done) cached.delete(oldest.value)
      }
    }
  }

  evictViewer(viewerId: string): void {
    this.lru.invalidate(viewerId)
  }

  /** Every viewer's flags of these posts (deleted posts, changed non-public replies). */
  evictPosts(ids: readonly string[]): void {
    this.lru.invalidateWhere((_viewer, flags) => ids.some((id) => flags.has(id)))
  }
}
