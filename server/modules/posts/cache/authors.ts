import { Lru } from '../../../cache/lru'
import type { UserSummaryRow } from '../present'

export const AUTHOR_TTL_MS = 60_000
export const AUTHOR_MAX = 20_000

/**
 * Member summaries (name, avatar, verified) for post authors and reposters, kept apart from the cards so that a
 * profile change evicts one entry instead of every card of that member.
 */
export class AuthorCache {
  private readonly lru: Lru<string, UserSummaryRow>

  constructor(enabled: boolean) {
    this.lru = new Lru({ maxEntries: enabled ? AUTHOR_MAX : 0, ttlMs: AUTHOR_TTL_MS })
  }

  get generation(): number {
    return this.lru.generation
  }

  lookup(ids: readonly string[]): { found: Map<string, UserSummaryRow>; missing: string[] } {
    const found = new Map<string, UserSummaryRow>()
    const missing: string[] = []
    for (const id of new Set(ids)) {
      const author = this.lru.get(id)
      if (author) found.set(id, author)
      else missing.push(id)
    }
    return { found, missing }
  }

  storeIfFresh(authors: Iterable<UserSummaryRow>, generation: number): void {
    for (const author of authors) this.lru.setIfFresh(author.id, author, generation)
  }

  evict(userId: string): void {
    this.lru.invalidate(userId)
  }
}
