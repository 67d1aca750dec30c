import type { SnapshotFrom } from 'xstate'
import type { FeedMachine } from './feed.machine'

// Narrow reads of the home feed for the views (one useSelector each).
type FeedSnapshot = SnapshotFrom<FeedMachine>

export const selectEntries = (s: FeedSnapshot) => s.context.entries
export const selectIsLoading = (s: FeedSnapshot) => s.matches('loading')
export const selectLoadFailed = (s: FeedSnapshot) => s.matches('error')
export const selectError = (s: FeedSnapshot) => s.context.error
export const selectCanLoadMore = (s: FeedSnapshot) => s.can({ type: 'feed.loadMore' })
export const selectIsLoadingMore = (s: FeedSnapshot) => s.matches({ ready: 'loadingMore' })
export const selectLoadMoreFailed = (s: FeedSnapshot) => s.matches({ ready: 'loadMoreFailed' })
export const selectIsEnd = (s: FeedSnapshot) => s.matches({ ready: 'end' })
