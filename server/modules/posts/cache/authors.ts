import { Lru } from '../../../cache/lru'
import type { Schemas } from '../../../http/handler-types'

type UserSummary = Schemas['UserSummary']

export const AUTHOR_TTL_MS = 60_000
export const AUTHOR_MAX = 20_000

/**
 * Member summaries (name, avatar, verified) for post authors and reposters, kept apart from the cards so that a
 * profile change evicts one entry instead of every card of that member.
 */
export class AuthorCache {
  private readonly lru: Lru<string, UserSummary>

  constructor(enabled: boolean) {
    this.lru = new Lru({ maxEntries: enabled ? AUTHOR_MAX : 0, ttlMs: 2 * AUTHOR_TTL_MS, refreshMs: AUTHOR_TTL_MS })
  }

  get generation(): number {
    return this.lru.generation
  }

  /** Cached ones (stale ones included: `stale` lists them for a background reload) and the ids to load. */
  lookup(ids: readonly string[]): { found: Map<string, UserSummary>; missing: string[]; stale: string[] } {
    const found = new Map<string, UserSummary>()
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

  storeIfFresh(authors: Iterable<UserSummary>, generation: number): void {
    for (const author of authors) this.lru.setIfFresh(author.id, author, generation)
  }

  evict(userId: string): void {
    this.lru.invalidate(userId)
  }
}
