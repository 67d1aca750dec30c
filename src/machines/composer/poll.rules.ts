import { POLL, POLL_DEFAULT_DURATION, POLL_DURATIONS, POLL_MESSAGES, pollOptionProblem, pollProblem } from '../../api/contract/polls'

// The composer's poll (docs/product.md, "Polls"): its draft, the edits the poll editor sends, and the rules it
// breaks, in the product's words (src/api/contract/polls.ts, which the server says too). Kept apart from the
// composer's other rules so the poll is one module the composer routes its events to.

export { POLL, POLL_DURATIONS, POLL_MESSAGES }

export interface PollDraft {
  /** The options as typed (trimmed when sent). */
  options: ReadonlyArray<string>
  durationSeconds: number
  multiple: boolean
}

export const NEW_POLL: PollDraft = { options: ['', ''], durationSeconds: POLL_DEFAULT_DURATION, multiple: false }

export type PollEditEvent =
  | { type: 'composer.poll.add' }
  | { type: 'composer.poll.remove' }
  | { type: 'composer.poll.option.change'; index: number; value: string }
  | { type: 'composer.poll.option.add' }
  | { type: 'composer.poll.option.remove'; index: number }
  | { type: 'composer.poll.duration.change'; seconds: number }
  | { type: 'composer.poll.multiple.change'; value: boolean }

export const POLL_EDIT_EVENTS: ReadonlyArray<PollEditEvent['type']> = [
  'composer.poll.add',
  'composer.poll.remove',
  'composer.poll.option.change',
  'composer.poll.option.add',
  'composer.poll.option.remove',
  'composer.poll.duration.change',
  'composer.poll.multiple.change',
]

export const isPollEdit = (event: { type: string }): event is PollEditEvent =>
  (POLL_EDIT_EVENTS as ReadonlyArray<string>).includes(event.type)

/** The poll after one edit (null: no poll). Options stay between 2 and 4. */
export function editedPoll(poll: PollDraft | null, event: PollEditEvent): PollDraft | null {
  switch (event.type) {
    case 'composer.poll.add':
      return poll ?? NEW_POLL
    case 'composer.poll.remove':
      return null
  }
  if (!poll) return null
  switch (event.type) {
    case 'composer.poll.option.change':
      if (event.index < 0 || event.index >= poll.options.length) return poll
      return { ...poll, options: poll.options.map((o, i) => (i === event.index ? event.value : o)) }
    case 'composer.poll.option.add':
      return poll.options.length >= POLL.optionsMax ? poll : { ...poll, options: [...poll.options, ''] }
    case 'composer.poll.option.remove':
      return poll.options.length <= POLL.optionsMin ? poll : { ...poll, options: poll.options.filter((_, i) => i !== event.index) }
    case 'composer.poll.duration.change':
      return { ...poll, durationSeconds: event.seconds }
    case 'composer.poll.multiple.change':
      return { ...poll, multiple: event.value }
  }
}

export const canAddOption = (poll: PollDraft | null): boolean => poll !== null && poll.options.length < POLL.optionsMax
export const canRemoveOption = (poll: PollDraft | null): boolean => poll !== null && poll.options.length > POLL.optionsMin

/** Each option's own problem (blank, too long, a repeat of an earlier one), by position; null where it is fine. */
export function optionProblems(poll: PollDraft): Array<string | null> {
  return poll.options.map((option, i) => pollOptionProblem(option, poll.options.slice(0, i)))
}

/**
 * The poll's problem as the composer says it, or null. A poll and media are exclusive, as in Mastodon: said on the
 * poll, whichever was added last.
 */
export function pollDraftProblem(poll: PollDraft | null, mediaCount: number): string | null {
  if (!poll) return null
  if (mediaCount > 0) return POLL_MESSAGES.withMedia
  return pollProblem(poll.options, poll.durationSeconds)
}

/** Whether the poll editor's options may be too long while typing: said at once, like the post's length. */
export function liveOptionProblem(poll: PollDraft | null): string | null {
  if (!poll) return null
  return poll.options.some((o) => [...o.trim()].length > POLL.optionLength) ? POLL_MESSAGES.optionTooLong : null
}
