// Bookmarks and collections (docs/product.md, "Bookmarks"): the dialog's tabs and every text it says. The collection
// form's rules are the list form's (lib/named-group.rules.ts).

export const COLLECTION_CREATED = 'Collection created successfully'
export const COLLECTION_UPDATED = 'Collection updated successfully'
export const COLLECTION_CREATE_FAILED = 'Failed to create collection'
export const COLLECTION_UPDATE_FAILED = 'Failed to update collection'
export const BOOKMARK_REMOVED = 'Bookmark removed'
export const BOOKMARK_REMOVE_FAILED = 'Failed to remove bookmark'
export const POST_FILED = 'Added to collection'
export const POST_UNFILED = 'Removed from collection'
export const FILE_FAILED = 'Failed to add to collection'
export const UNFILE_FAILED = 'Failed to remove from collection'
export const COLLECTION_LOAD_FAILED = 'Could not load this collection.'
export const BOOKMARKS_LOAD_FAILED = 'Could not load your bookmarks.'

/** The Bookmarks / Collections tabs of the Bookmarks dialog, in order. */
export const BOOKMARK_TABS = ['bookmarks', 'collections'] as const
export type BookmarkTab = (typeof BOOKMARK_TABS)[number]

