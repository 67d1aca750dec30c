import type { Trend } from '../../api/discover.calls'

// The Search screen's rules (docs/product.md, "Search and hashtags"), as plain functions the search machine uses.

export const SEARCH_TABS = ['posts', 'users', 'hashtags'] as const
export type SearchTab = (typeof SEARCH_TABS)[number]

/** Typing waits this long after the last key before it searches. */
export const SEARCH_DEBOUNCE_MS = 500

/** The server's shortest user query (after an optional '@'). */
export const USER_QUERY_MIN = 2

/** Shown when the server gives no trends or cannot be reached (without counts). */
export const FALLBACK_TRENDS = ['technology', 'news', 'sports', 'entertainment', 'politics'] as const

/** A trend as Trending Now shows it: the fallback list has no counts. */
export interface TrendItem {
  hashtag: string
  count: number | null
}

/** What is searched for: the text in the box without the spaces around it. */
export function toTerm(text: string): string {
  return text.trim()
}

/** The users query for a term: without its leading '@', or null when it is too short to search (no call is made). */
export function userQuery(term: string): string | null {
  const q = term.replace(/^@/, '').trim()
  return q.length >= USER_QUERY_MIN ? q : null
}

/** The server's trends, or the fixed list when there are none. */
export function trendsOrFallback(trends: ReadonlyArray<Trend> | null): TrendItem[] {
  if (trends && trends.length > 0) return trends.map(({ hashtag, count }) => ({ hashtag, count }))
  return FALLBACK_TRENDS.map((hashtag) => ({ hashtag, count: null }))
}

/** The query that lists a hashtag's posts. */
export function tagQuery(hashtag: string): string {
  return `#${hashtag.replace(/^#/, '')}`
}

/** The Search screen's address for a query: /search?q=... (just /search when empty). */
export function searchHref(q: string): string {
  return q === '' ? '/search' : `/search?q=${encodeURIComponent(q)}`
}
