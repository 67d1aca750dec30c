import { describe, expect, it } from 'vitest'
import {
  FALLBACK_TRENDS,
  searchHref,
  tagQuery,
  toTerm,
  trendsOrFallback,
  userQuery,
} from '../../src/machines/search/search.rules'

// The Search screen's rules (docs/product.md, "Search and hashtags").

describe('search rules', () => {
  it('searches the text without the spaces around it', () => {
    expect(toTerm('  heron  ')).toBe('heron')
    expect(toTerm('   ')).toBe('')
  })

  it('asks for users only from 2 characters, after an optional @', () => {
    expect(userQuery('a')).toBeNull()
    expect(userQuery('@a')).toBeNull()
    expect(userQuery('@')).toBeNull()
    expect(userQuery('an')).toBe('an')
    expect(userQuery('@ann')).toBe('ann')
    expect(userQuery('Ann Estuary')).toBe('Ann Estuary')
  })

  it("shows the server's trends, or the fixed list when there are none", () => {
    expect(trendsOrFallback([{ hashtag: 'birds', count: 3 }])).toEqual([{ hashtag: 'birds', count: 3 }])
    const fixed = ['technology', 'news', 'sports', 'entertainment', 'politics'].map((hashtag) => ({ hashtag, count: null }))
    expect(trendsOrFallback([])).toEqual(fixed)
    expect(trendsOrFallback(null)).toEqual(fixed)
    expect(FALLBACK_TRENDS).toHaveLength(5)
  })

  it('a hashtag searches #tag, and the address carries the query', () => {
    expect(tagQuery('birds')).toBe('#birds')
    expect(tagQuery('#birds')).toBe('#birds')
    expect(searchHref('#birds')).toBe('/search?q=%23birds')
    expect(searchHref('from:ann heron')).toBe('/search?q=from%3Aann%20heron')
    expect(searchHref('')).toBe('/search')
  })
})
