import type { SnapshotFrom } from 'xstate'
import type { attachmentViewMachine } from './attachment-view.machine'

// What a bubble's photo or video tile reads from its actor.

type Snapshot = SnapshotFrom<typeof attachmentViewMachine>

export const selectThumbUrl = (s: Snapshot) => s.context.thumbUrl
export const selectFileUrl = (s: Snapshot) => (s.matches('open') ? s.context.fileUrl : null)
export const selectViewError = (s: Snapshot) => s.context.error
export const selectViewBusy = (s: Snapshot) => s.hasTag('busy')
export const selectThumbFailed = (s: Snapshot) => s.matches('thumbFailed')
