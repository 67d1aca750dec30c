import type { SnapshotFrom } from 'xstate'
import type { MessageAttachmentsMachine } from './message-attachments.machine'
import { MAX_ATTACHMENTS } from './message-attachments.rules'

// What the composer's picker and previews read from the attachments actor.

type Snapshot = SnapshotFrom<MessageAttachmentsMachine>

export const selectHeldFiles = (s: Snapshot) => s.context.files
export const selectAttachmentError = (s: Snapshot) => s.context.error
export const selectUploading = (s: Snapshot) => s.hasTag('busy')
/** More files may be picked: fewer than the limit, and not while uploading. */
export const selectCanPick = (s: Snapshot) => s.matches('picking') && s.context.files.length < MAX_ATTACHMENTS
