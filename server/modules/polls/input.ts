import { cleanPollOptions, POLL_MESSAGES, pollProblem } from '../../../src/api/contract/polls'
import { Invalid } from '../../lib/domain-errors'

/** createPost's poll parts, as the contract validated them (multipart text fields). */
export interface PollFields {
  pollOptions?: string[]
  pollDuration?: string
  pollMultiple?: 'true' | 'false'
}

/** A poll to create, checked: options trimmed, duration in seconds. */
export interface NewPoll {
  options: string[]
  durationSeconds: number
  multiple: boolean
}

const DIGITS = /^[0-9]+$/

/**
 * The poll a createPost form asks for, or null without one; throws Invalid with the product's sentence for each broken
 * rule (src/api/contract/polls.ts, the composer's own words). A duration, or multiple choice, without options is a
 * poll with too few options rather than something silently ignored.
 */
export function pollFromForm(fields: PollFields, mediaCount: number): NewPoll | null {
  const { pollOptions, pollDuration, pollMultiple } = fields
  if (pollOptions === undefined && pollDuration === undefined && pollMultiple !== 'true') return null
  const options = pollOptions ?? []
  if (mediaCount > 0) throw new Invalid(POLL_MESSAGES.withMedia)
  const durationSeconds = pollDuration !== undefined && DIGITS.test(pollDuration) ? Number(pollDuration) : Number.NaN
  const problem = pollProblem(options, durationSeconds)
  if (problem) throw new Invalid(problem)
  return { options: cleanPollOptions(options), durationSeconds, multiple: pollMultiple === 'true' }
}
