import { hasMorePages, PAGE_SIZE } from '../lib/paging'

// A followers/following list's rules (docs/product.md, "Paging"), as plain functions the follow-list machine's guards
// use. The paging itself is shared (src/machines/lib/paging.ts).

/** One page of a list: the product's page size, which the server uses too. */
export const FOLLOW_PAGE_SIZE = PAGE_SIZE

/** Load more shows while the last page came back full and the server gave a cursor for the next one. */
export { hasMorePages }
