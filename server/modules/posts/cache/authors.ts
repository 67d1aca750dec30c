import type { Schemas } from '../../../http/handler-types'
import { ByIdCache } from './by-id'

type UserSummary = Schemas['UserSummary']

export const AUTHOR_TTL_MS = 60_000
export const AUTHOR_MAX = 20_000

/**
 * Member summaries (name, avatar, verified) for post authors and reposters, kept apart from the cards so that a
 * profile change evicts one entry instead of every card of that member.
 */
export class AuthorCache extends ByIdCache<UserSummary> {
  constructor(enabled: boolean) {
    super(enabled ? AUTHOR_MAX : 0, AUTHOR_TTL_MS)
  }

  evict(userId: string): void {
    this.lru.invalidate(userId)
  }
}
