import { run } from '../../api/calls'
import { LIMITS } from '../../api/contract/limits'
import { draftCalls, type NewDraft, type SavedDraft } from '../../api/drafts.calls'
import type { Post, PostMedia, Visibility } from '../../api/posts.calls'
import { EMPTY_DRAFT, type Draft } from './composer.rules'

// The composer's drafts and scheduling (docs/product.md, "Drafts and scheduled posts"): a draft is saved with
// "Save draft"; a post with a schedule date and time is saved as a scheduled post instead of being sent; a saved draft
// opened again keeps its id and saved files, and pressing Post then saves the changes and publishes it.

export const SCHEDULE_MESSAGES = {
  incomplete: 'Pick both a date and a time to schedule',
  tooSoon: 'Schedule a post at least 1 minute ahead',
  tooLate: 'Schedule a post at most 1 year ahead',
  saved: 'Draft saved',
  scheduled: 'Post scheduled',
  saveFailed: 'Could not save the draft',
  notKept: 'A poll or a quote goes out at once: drafts and scheduled posts keep text, audience and media only',
} as const

/** What a draft cannot keep (the drafts table holds text, audience, options and media): said rather than dropped. */
export function notKeptError(draft: Pick<Draft, 'poll'>, quoteOf: string | null): string | undefined {
  return draft.poll !== null || quoteOf !== null ? SCHEDULE_MESSAGES.notKept : undefined
}

/** A draft opened from the server: its id and the files it already has (new files cannot be added to it). */
export interface OpenedDraft {
  id: string
  media: ReadonlyArray<PostMedia>
}

/** The schedule as an instant, from the member's local date and time inputs; null when neither is set. */
export function scheduledAt(draft: Pick<Draft, 'scheduleDate' | 'scheduleTime'>): Date | null {
  if (draft.scheduleDate === '' || draft.scheduleTime === '') return null
  const at = new Date(`${draft.scheduleDate}T${draft.scheduleTime}`)
  return Number.isNaN(at.getTime()) ? null : at
}

/** The schedule's broken rule, if any (the server checks the same window). */
export function scheduleError(draft: Pick<Draft, 'scheduleDate' | 'scheduleTime'>, now: Date): string | undefined {
  if (draft.scheduleDate === '' && draft.scheduleTime === '') return undefined
  const at = scheduledAt(draft)
  if (!at) return SCHEDULE_MESSAGES.incomplete
  if (at.getTime() < now.getTime() + LIMITS.scheduleMinAheadMs) return SCHEDULE_MESSAGES.tooSoon
  if (at.getTime() > now.getTime() + LIMITS.scheduleMaxAheadMs) return SCHEDULE_MESSAGES.tooLate
  return undefined
}

export const isScheduled = (draft: Draft) => scheduledAt(draft) !== null

/** The local yyyy-mm-dd and hh:mm of an instant, for the date and time inputs. */
function localFields(iso: string | null): { scheduleDate: string; scheduleTime: string } {
  if (!iso) return { scheduleDate: '', scheduleTime: '' }
  const at = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, '0')
  return {
    scheduleDate: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`,
    scheduleTime: `${pad(at.getHours())}:${pad(at.getMinutes())}`,
  }
}

/** A saved draft as the composer's fields. */
export function draftFromSaved(saved: SavedDraft): Draft {
  return {
    ...EMPTY_DRAFT,
    content: saved.content,
    visibility: saved.visibility,
    sensitive: saved.sensitive,
    sensitiveReason: saved.sensitiveReason ?? '',
    ...localFields(saved.scheduledAt),
  }
}

export interface DraftSubmission {
  draft: NewDraft
  /** Set when a saved draft is open: it is updated rather than saved anew. */
  opened: OpenedDraft | null
}

export function toNewDraft(draft: Draft, withSchedule: boolean): NewDraft {
  return {
    content: draft.content.trim() === '' ? '' : draft.content,
    visibility: draft.visibility as Visibility,
    sensitive: draft.sensitive,
    sensitiveReason: draft.sensitiveReason,
    media: draft.media.map(({ file, alt }) => ({ file, alt })),
    scheduledAt: withSchedule ? (scheduledAt(draft)?.toISOString() ?? null) : null,
  }
}

const changesOf = (submission: DraftSubmission, opened: OpenedDraft) => ({
  content: submission.draft.content,
  visibility: submission.draft.visibility,
  sensitive: submission.draft.sensitive,
  sensitiveReason: submission.draft.sensitive ? submission.draft.sensitiveReason.trim() || null : null,
  scheduledAt: submission.draft.scheduledAt,
  media: opened.media.map((m) => ({ id: m.id, alt: m.alt })),
})

/** Saves (or updates) the draft, scheduled or not. */
export function saveDraft(submission: DraftSubmission, signal: AbortSignal): Promise<SavedDraft> {
  const { opened } = submission
  return opened ? run(draftCalls.updateDraft(opened.id, changesOf(submission, opened)), signal) : run(draftCalls.createDraft(submission.draft), signal)
}

/** Post from an opened draft: its changes are saved, then it is published (and so removed) by the server. */
export async function publishOpened(submission: DraftSubmission & { opened: OpenedDraft }, signal: AbortSignal): Promise<Post> {
  await run(draftCalls.updateDraft(submission.opened.id, changesOf(submission, submission.opened)), signal)
  return run(draftCalls.publishDraft(submission.opened.id), signal)
}
