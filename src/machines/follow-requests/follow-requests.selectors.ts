import type { SnapshotFrom } from 'xstate'
import type { FollowRequestsMachine } from './follow-requests.machine'
import { pendingCountLabel } from './follow-requests.rules'

// What the follow-requests list (Settings -> Privacy & Safety) and the Notifications entry read from the actor.

type Snapshot = SnapshotFrom<FollowRequestsMachine>

export const selectLoading = (s: Snapshot) => s.hasTag('loading')
export const selectFailed = (s: Snapshot) => s.matches('failed')
/** Something is saving or loading more: every button waits. */
export const selectBusy = (s: Snapshot) => s.hasTag('busy')
export const selectLoadingMore = (s: Snapshot) => s.matches({ ready: 'loadingMore' })
export const selectRequests = (s: Snapshot) => s.context.requests
export const selectHasMore = (s: Snapshot) => s.context.nextCursor !== null
/** The row whose answer is saving, and which answer: its button shows a spinner. */
export const selectPending = (s: Snapshot) => s.context.pending
/** "3", "20+" or null (nothing pending, or not loaded yet). */
export const selectCountLabel = (s: Snapshot) =>
  s.matches('ready') ? pendingCountLabel(s.context.requests.length, s.context.nextCursor !== null) : null
