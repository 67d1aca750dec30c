import type { SnapshotFrom } from 'xstate'
import type { ComposerMachine } from './composer.machine'
import { isScheduled } from './composer.drafts'
import { isMediaFull, lengthLevel, postLength } from './composer.rules'

// Narrow reads of the composer for its views (one useSelector each).
type ComposerSnapshot = SnapshotFrom<ComposerMachine>

export const selectIsOpen = (s: ComposerSnapshot) => s.hasTag('open')
export const selectIsBusy = (s: ComposerSnapshot) => s.hasTag('busy')
/** Sending with files attached (the button says Uploading rather than Posting). */
export const selectIsUploading = (s: ComposerSnapshot) => s.hasTag('busy') && s.context.draft.media.length > 0
export const selectCanSubmit = (s: ComposerSnapshot) => s.can({ type: 'composer.submit' })
export const selectContent = (s: ComposerSnapshot) => s.context.draft.content
export const selectMedia = (s: ComposerSnapshot) => s.context.draft.media
/** The text's length as the counter shows it (code points), and how it should stand out. */
export const selectLength = (s: ComposerSnapshot) => postLength(s.context.draft.content)
export const selectLengthLevel = (s: ComposerSnapshot) => lengthLevel(postLength(s.context.draft.content))
export const selectIsMediaFull = (s: ComposerSnapshot) => isMediaFull(s.context.draft)
export const selectPreviews = (s: ComposerSnapshot) => s.context.previews
export const selectVisibility = (s: ComposerSnapshot) => s.context.draft.visibility
export const selectSensitive = (s: ComposerSnapshot) => s.context.draft.sensitive
export const selectReason = (s: ComposerSnapshot) => s.context.draft.sensitiveReason
export const selectScheduleDate = (s: ComposerSnapshot) => s.context.draft.scheduleDate
export const selectScheduleTime = (s: ComposerSnapshot) => s.context.draft.scheduleTime
export const selectErrors = (s: ComposerSnapshot) => s.context.errors
export const selectFailure = (s: ComposerSnapshot) => s.context.failure
export const selectReplyTo = (s: ComposerSnapshot) => s.context.replyTo
/** The post being edited (edit mode), or null when writing a new post. */
export const selectEditing = (s: ComposerSnapshot) => s.context.editing
/** A date and time are set: Post schedules rather than sends. */
export const selectIsScheduled = (s: ComposerSnapshot) => isScheduled(s.context.draft)
/** The saved draft being edited, with the files it already has. */
export const selectOpened = (s: ComposerSnapshot) => s.context.opened
export const selectCanSaveDraft = (s: ComposerSnapshot) => s.can({ type: 'composer.draft.save' })
/** The poll being written (poll.rules.ts), or null. */
export const selectPoll = (s: ComposerSnapshot) => s.context.draft.poll
/** A poll and media are exclusive: each button is off while the other is in the draft. */
export const selectHasMedia = (s: ComposerSnapshot) => s.context.draft.media.length > 0
export const selectHasPoll = (s: ComposerSnapshot) => s.context.draft.poll !== null
