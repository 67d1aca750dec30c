import type { SnapshotFrom } from 'xstate'
import type { DraftsMachine } from './drafts.machine'

type DraftsSnapshot = SnapshotFrom<DraftsMachine>

export const selectTab = (s: DraftsSnapshot) => s.context.tab
export const selectDrafts = (s: DraftsSnapshot) => s.context.drafts
export const selectIsLoading = (s: DraftsSnapshot) => s.matches('loading')
export const selectLoadFailed = (s: DraftsSnapshot) => s.matches('failed')
export const selectIsBusy = (s: DraftsSnapshot) => s.hasTag('busy')
export const selectHasMore = (s: DraftsSnapshot) => s.context.nextCursor !== null
export const selectRescheduling = (s: DraftsSnapshot) => s.context.rescheduling
