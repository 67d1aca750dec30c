import type { SnapshotFrom } from 'xstate'
import type { SessionsMachine } from './sessions.machine'

// What the View Sessions dialog reads from the sessions actor.

type Snapshot = SnapshotFrom<SessionsMachine>

export const selectOpen = (s: Snapshot) => s.hasTag('dialog')
export const selectLoading = (s: Snapshot) => s.hasTag('loading')
export const selectLoadError = (s: Snapshot) => (s.matches({ open: 'failed' }) ? s.context.error : null)
export const selectSessions = (s: Snapshot) => s.context.sessions
export const selectHasMore = (s: Snapshot) => s.context.nextCursor !== null
export const selectLoadingMore = (s: Snapshot) => s.matches({ open: { ready: 'loadingMore' } })
/** The session whose Sign out is saving, if any. */
export const selectRevoking = (s: Snapshot) => (s.matches({ open: { ready: 'revoking' } }) ? s.context.revoking : null)
export const selectRevokingOthers = (s: Snapshot) => s.matches({ open: { ready: 'revokingOthers' } })
export const selectBusy = (s: Snapshot) => s.hasTag('busy')
export const selectCanRevokeOthers = (s: Snapshot) => s.can({ type: 'sessions.revokeOthers' })
