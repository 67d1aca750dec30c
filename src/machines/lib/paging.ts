import { LIMITS } from '../../api/contract/limits'

// Paging of a list of rows (docs/product.md, "Paging"), shared by the machines that show one with Load more: the
// followers and following lists, a list's members (Manage Lists' members panel and the list page's Members), the
// Manage Lists and Bookmarks dialogs, the follow requests, the blocked and the muted members; and how a row the server
// answered takes its place among the rows shown.

/** One page: the product's page size, which the server uses too. */
export const PAGE_SIZE = LIMITS.pageSize

/** What a failed Load more says; the rows already shown stay. */
export const MORE_FAILED = 'Could not load more. Please try again.'

/** Load more shows while the last page came back full and the server gave a cursor for the next one. */
export function hasMorePages({ lastPageSize, nextCursor }: { lastPageSize: number; nextCursor: string | null }): boolean {
  return lastPageSize >= PAGE_SIZE && nextCursor !== null
}

/** Appends a page, keeping one row per id (a row that moved between pages, or was added here meanwhile, shows once). */
export function appendPage<T extends { id: string }>(rows: ReadonlyArray<T>, page: ReadonlyArray<T>): T[] {
  return appendPageBy(rows, page, (row) => row.id)
}

/** appendPage for rows whose id is elsewhere (a blocked or muted member's row is the member's). */
export function appendPageBy<T>(rows: ReadonlyArray<T>, page: ReadonlyArray<T>, idOf: (row: T) => string): T[] {
  const ids = new Set(rows.map(idOf))
  return [...rows, ...page.filter((row) => !ids.has(idOf(row)))]
}

/** A row the server answered (a saved edit, a new count) in place of the one with its id. */
export function replaceRow<T extends { id: string }>(rows: ReadonlyArray<T>, row: T): T[] {
  return rows.map((held) => (held.id === row.id ? row : held))
}

/** A row just made or added shows first, once. */
export function prependRow<T extends { id: string }>(rows: ReadonlyArray<T>, row: T): T[] {
  return [row, ...rows.filter((held) => held.id !== row.id)]
}
