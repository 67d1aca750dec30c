import { Lru, type LruStats } from '../../../cache/lru'

/**
 * Values keyed by their own id, served stale for a while: one older than `refreshMs` is still served (and listed as
 * stale, for a background reload), and gone at twice that. The card and author caches are this with their own sizes
 * and evictions.
 */
export class ByIdCache<V extends { id: string }> {
  protected readonly lru: Lru<string, V>

  constructor(maxEntries: number, refreshMs: number) {
    this.lru = new Lru({ maxEntries, ttlMs: 2 * refreshMs, refreshMs })
  }

  get generation(): number {
    return this.lru.generation
  }

  get stats(): LruStats {
    return this.lru.stats
  }

  /** Cached ones (stale ones included: `stale` lists them for a background reload) and the ids to load. */
  lookup(ids: readonly string[]): { found: Map<string, V>; missing: string[]; stale: string[] } {
    const found = new Map<string, V>()
    const missing: string[] = []
    const stale: string[] = []
    for (const id of new Set(ids)) {
      const hit = this.lru.lookup(id)
      if (!hit) missing.push(id)
      else {
        found.set(id, hit.value)
        if (hit.stale) stale.push(id)
      }
    }
    return { found, missing, stale }
  }

  clear(): void {
    this.lru.clear()
  }

  storeIfFresh(values: Iterable<V>, generation: number): void {
    for (const value of values) this.lru.setIfFresh(value.id, value, generation)
  }
}
