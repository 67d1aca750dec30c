import { LIMITS } from '../../api/contract/limits'

// Bookmarks and collections (spec sections 5 and 8; docs/product.md, "Bookmarks"): the collection form's rules, the
// dialog's tabs and every text it says. Used by the machine's guards and the dialog's form, so both agree.

export const NAME_REQUIRED = 'Name is required'
export const NAME_TOO_LONG = `Name must be at most ${LIMITS.listNameMax} characters`
export const DESCRIPTION_TOO_LONG = `Description must be at most ${LIMITS.listDescriptionMax} characters`

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

/** What the collection form holds as typed. */
export interface CollectionDraft {
  name: string
  description: string
  isPrivate: boolean
}

export const emptyDraft: CollectionDraft = { name: '', description: '', isPrivate: false }

export type CheckedDraft = { ok: true; value: CollectionDraft } | { ok: false; message: string }

/** The draft as it will be sent (trimmed), or the first thing wrong with it. Counted in characters (code points). */
export function checkCollection(draft: CollectionDraft): CheckedDraft {
  const name = draft.name.trim()
  const description = draft.description.trim()
  if (name === '') return { ok: false, message: NAME_REQUIRED }
  if ([...name].length > LIMITS.listNameMax) return { ok: false, message: NAME_TOO_LONG }
  if ([...description].length > LIMITS.listDescriptionMax) return { ok: false, message: DESCRIPTION_TOO_LONG }
  return { ok: true, value: { name, description, isPrivate: draft.isPrivate } }
}
