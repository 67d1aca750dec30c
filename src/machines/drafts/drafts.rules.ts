import type { SavedDraft } from '../../api/drafts.calls'
import { scheduleError } from '../composer/composer.drafts'

// The Drafts & Scheduled screen's rules and words (docs/product.md, "Drafts and scheduled posts").

export type DraftsTab = 'drafts' | 'scheduled'

export const DRAFTS_MESSAGES = {
  loadFailed: 'Could not load your drafts',
  deleted: 'Draft deleted',
  cancelled: 'Scheduled post cancelled: it is back in Drafts',
  rescheduled: 'Post rescheduled',
  changeFailed: 'Could not change the draft',
  emptyDrafts: 'No drafts. "Save draft" in the composer keeps a post here for later.',
  emptyScheduled: 'Nothing scheduled. Set a date and time in the composer\'s options to schedule a post.',
} as const

/** The reschedule form's broken rule (the composer's schedule window). */
export function rescheduleError(date: string, time: string, now: Date): string | undefined {
  return scheduleError({ scheduleDate: date, scheduleTime: time }, now) ?? (date === '' ? 'Pick a date and a time' : undefined)
}

/** What a row says about its state: when it goes out, or why it could not. */
export function draftStatus(draft: SavedDraft): 'draft' | 'scheduled' | 'failed' {
  if (draft.failure !== null) return 'failed'
  return draft.scheduledAt === null ? 'draft' : 'scheduled'
}
