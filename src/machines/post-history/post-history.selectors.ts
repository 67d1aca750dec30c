import type { SnapshotFrom } from 'xstate'
import type { PostHistoryMachine } from './post-history.machine'

type Snapshot = SnapshotFrom<PostHistoryMachine>

export const selectIsOpen = (s: Snapshot) => s.hasTag('open')
export const selectIsLoading = (s: Snapshot) => s.matches({ open: 'loading' })
export const selectIsLoadingMore = (s: Snapshot) => s.matches({ open: 'loadingMore' })
export const selectFailed = (s: Snapshot) => s.matches({ open: 'failed' })
export const selectVersions = (s: Snapshot) => s.context.versions
export const selectHasMore = (s: Snapshot) => s.context.nextCursor !== null
export const selectError = (s: Snapshot) => s.context.error
