import type { LruStats } from '../cache/lru'
import type { ServiceContext } from '../services'

/**
 * Every read cache's counters by the name metrics label it with (docs/architecture.md, "Caches", describes each).
 * A cache added to `createContext` (server/services.ts) is listed here too, or its hit rate is nobody's to see.
 */
export function cacheStats(
  context: Pick<ServiceContext, 'sessions' | 'postCaches' | 'memberSearches' | 'profilePages' | 'notificationPages'>,
): Record<string, LruStats> {
  const { postCaches, memberSearches } = context
  const search = memberSearches.stats
  return {
    sessions: context.sessions.cacheStats,
    post_cards: postCaches.cards.stats,
    authors: postCaches.authors.stats,
    viewer_flags: postCaches.flags.stats,
    feed_timelines: postCaches.timelines.stats,
    list_timelines: postCaches.listTimelines.stats,
    post_search: postCaches.searches.stats,
    member_search_matches: search.matches,
    member_search_suggestions: search.suggestions,
    member_search_followees: search.followees,
    member_search_first_pages: search.firstPages,
    notification_first_pages: context.notificationPages.stats,
    profile_first_pages: context.profilePages.stats,
  }
}
