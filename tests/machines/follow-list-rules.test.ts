import { describe, expect, it } from 'vitest'
import { LIMITS } from '../../src/api/contract/limits'
import { canFollow } from '../../src/machines/follow/follow.rules'
import { FOLLOW_PAGE_SIZE, hasMorePages } from '../../src/machines/follow-list/follow-list.rules'

// A followers/following list (docs/product.md, "Paging"): Load more while the last page came back full (20) with a cursor,
// and no Follow button on the member's own row or profile.

describe('hasMorePages', () => {
  it('uses the product page size, 20', () => {
    expect(FOLLOW_PAGE_SIZE).toBe(LIMITS.pageSize)
    expect(FOLLOW_PAGE_SIZE).toBe(20)
  })

  it('offers Load more after a full page with a cursor', () => {
    expect(hasMorePages({ lastPageSize: 20, nextCursor: 'c1' })).toBe(true)
  })

  it('stops after a short page or without a cursor', () => {
    expect(hasMorePages({ lastPageSize: 19, nextCursor: 'c1' })).toBe(false)
    expect(hasMorePages({ lastPageSize: 20, nextCursor: null })).toBe(false)
    expect(hasMorePages({ lastPageSize: 0, nextCursor: null })).toBe(false)
  })
})

describe('canFollow', () => {
  it('offers Follow on anyone but the member themselves', () => {
    expect(canFollow('ann', 'robin')).toBe(true)
    expect(canFollow('robin', 'robin')).toBe(false)
  })
})
