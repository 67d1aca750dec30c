import type { SnapshotFrom } from 'xstate'
import type { NamedGroupFormRef } from '../named-group-form/named-group-form.machine'
import type { BookmarksMachine } from './bookmarks.machine'

// What the Bookmarks dialog reads from the bookmarks actor.

type Snapshot = SnapshotFrom<BookmarksMachine>

export const selectTab = (s: Snapshot) => s.context.tab
export const selectLoading = (s: Snapshot) => s.hasTag('loading')
export const selectFailed = (s: Snapshot) => s.matches('failed')
export const selectBusy = (s: Snapshot) => s.hasTag('busy')
export const selectBookmarks = (s: Snapshot) => s.context.bookmarks
export const selectCollections = (s: Snapshot) => s.context.collections
export const selectOpenCollection = (s: Snapshot) => s.context.collection
export const selectCollectionBookmarks = (s: Snapshot) => s.context.collectionBookmarks
export const selectOpeningCollection = (s: Snapshot) => s.matches({ ready: 'openingCollection' })
export const selectLoadingMore = (s: Snapshot) => s.matches({ ready: 'loadingMore' })
/** Load more is offered for the list on screen while the server gave a next cursor. */
export const selectHasMore = (s: Snapshot) => {
  const { tab, collection, bookmarksCursor, collectionsCursor, collectionCursor } = s.context
  if (tab === 'bookmarks') return bookmarksCursor !== null
  return collection ? collectionCursor !== null : collectionsCursor !== null
}
export const selectEditing = (s: Snapshot) => s.matches({ ready: 'form' })
export const selectSavingForm = (s: Snapshot) => s.matches({ ready: { form: 'saving' } })
/** The open form's actor (named-group-form), or undefined. */
export const selectForm = (s: Snapshot) => (s.matches({ ready: 'form' }) ? (s.children.form as NamedGroupFormRef | undefined) : undefined)
export const selectEditingId = (s: Snapshot) => s.context.editingId
/** The bookmark whose collection picker is open, or null. */
export const selectFiling = (s: Snapshot) =>
  s.matches({ ready: 'choosing' }) ? (s.context.bookmarks.find((b) => b.id === s.context.filing) ?? null) : null
