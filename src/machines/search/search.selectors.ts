import type { SnapshotFrom } from 'xstate'
import type { SearchMachine } from './search.machine'

// Narrow reads of the search actor for the views (one useSelector each).
type SearchSnapshot = SnapshotFrom<SearchMachine>

export type SearchPhase = 'panels' | 'typing' | 'tooShort' | 'loading' | 'failed' | 'empty' | 'loaded'

export const selectQueryText = (s: SearchSnapshot) => s.context.text
export const selectTerm = (s: SearchSnapshot) => s.context.term
export const selectTab = (s: SearchSnapshot) => s.context.tab
/** An empty box shows Trending Now and Who to Follow instead of the tabs. */
export const selectShowsPanels = (s: SearchSnapshot) => s.context.text.trim() === ''
export const selectPhase = (s: SearchSnapshot): SearchPhase => {
  if (s.matches({ query: 'typing' })) return 'typing'
  if (s.matches({ query: { searching: 'tooShort' } })) return 'tooShort'
  if (s.matches({ query: { searching: 'loading' } })) return 'loading'
  if (s.matches({ query: { searching: 'failed' } })) return 'failed'
  if (s.matches({ query: { searching: 'empty' } })) return 'empty'
  if (s.matches({ query: { searching: 'loaded' } })) return 'loaded'
  return 'panels'
}
export const selectError = (s: SearchSnapshot) => s.context.error
export const selectEntries = (s: SearchSnapshot) => s.context.entries
export const selectUsers = (s: SearchSnapshot) => s.context.users
export const selectHashtags = (s: SearchSnapshot) => s.context.hashtags
export const selectCanLoadMore = (s: SearchSnapshot) => s.can({ type: 'search.more' })
export const selectIsLoadingMore = (s: SearchSnapshot) => s.matches({ query: { searching: { loaded: 'loadingMore' } } })
export const selectLoadMoreFailed = (s: SearchSnapshot) => s.matches({ query: { searching: { loaded: 'moreFailed' } } })
/** The discovery panels' actor (Trending Now, Who to Follow), running as long as the screen. */
export const selectDiscover = (s: SearchSnapshot) => s.children.discover
