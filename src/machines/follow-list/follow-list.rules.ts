import { LIMITS } from '../../api/contract/limits'

// A followers/following list's rules (docs/product.md, "Paging"), as plain functions the follow-list machine's guards use.

/** One page of a list: the product's page size, which the server uses too. */
export const FOLLOW_PAGE_SIZE = LIMITS.pageSize

/** Load more shows while the last page came back full and the server gave a cursor for the next one. */
export function hasMorePages({ lastPageSize, nextCursor }: { lastPageSize: number; nextCursor: string | null }): boolean {
  return lastPageSize >= FOLLOW_PAGE_SIZE && nextCursor !== null
}
