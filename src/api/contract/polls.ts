// The rules of a poll on a post (docs/product.md, "Polls"), shared by the composer (src/machines/composer/poll.rules.ts),
// which says them before a post is sent, and the server (server/modules/polls/input.ts), which enforces them again
// with the same words. openapi.yaml's createPost `pollOptions` says the same limits.

export const POLL = {
  optionsMin: 2,
  optionsMax: 4,
  /** One option's text, in characters (code points), after trimming. */
  optionLength: 50,
  /** How long a poll stays open, in seconds: 5 minutes to 7 days (Mastodon's range). */
  durationMin: 5 * 60,
  durationMax: 7 * 24 * 60 * 60,
} as const

/** The durations the composer offers, in seconds, with their labels (Mastodon's presets). */
export const POLL_DURATIONS: ReadonlyArray<{ seconds: number; label: string }> = [
  { seconds: 5 * 60, label: '5 minutes' },
  { seconds: 30 * 60, label: '30 minutes' },
  { seconds: 60 * 60, label: '1 hour' },
  { seconds: 6 * 60 * 60, label: '6 hours' },
  { seconds: 24 * 60 * 60, label: '1 day' },
  { seconds: 3 * 24 * 60 * 60, label: '3 days' },
  { seconds: 7 * 24 * 60 * 60, label: '7 days' },
]

/** A new poll's default duration: one day. */
export const POLL_DEFAULT_DURATION = 24 * 60 * 60

export const POLL_MESSAGES = {
  tooFewOptions: `A poll needs at least ${POLL.optionsMin} options`,
  tooManyOptions: `A poll has at most ${POLL.optionsMax} options`,
  blankOption: 'Poll options must not be blank',
  optionTooLong: `Poll options must be at most ${POLL.optionLength} characters`,
  duplicateOption: 'Poll options must be different from each other',
  duration: 'Poll duration must be between 5 minutes and 7 days',
  withMedia: 'A post can have a poll or media, not both',
  noChoice: 'Choose an option to vote',
  oneChoice: 'This poll allows only one choice',
  unknownOption: 'That option is not part of this poll',
  closed: 'This poll has ended',
  alreadyVoted: 'You have already voted in this poll',
  notAPoll: 'This post has no poll',
} as const

const codePoints = (text: string) => [...text].length

/** The options as they are stored: trimmed. */
export const cleanPollOptions = (options: readonly string[]): string[] => options.map((o) => o.trim())

/**
 * The rule one option breaks (checked on its trimmed text), or null. `others` are the other options, trimmed, to find
 * duplicates (compared without regard to case, as a voter reads them).
 */
export function pollOptionProblem(option: string, others: readonly string[]): string | null {
  const text = option.trim()
  if (text === '') return POLL_MESSAGES.blankOption
  if (codePoints(text) > POLL.optionLength) return POLL_MESSAGES.optionTooLong
  if (others.some((o) => o.trim().toLowerCase() === text.toLowerCase())) return POLL_MESSAGES.duplicateOption
  return null
}

/** The first rule a poll breaks, or null: the same answer on both sides. */
export function pollProblem(options: readonly string[], durationSeconds: number): string | null {
  if (options.length < POLL.optionsMin) return POLL_MESSAGES.tooFewOptions
  if (options.length > POLL.optionsMax) return POLL_MESSAGES.tooManyOptions
  for (const [i, option] of options.entries()) {
    const problem = pollOptionProblem(option, options.slice(0, i))
    if (problem) return problem
  }
  if (!Number.isInteger(durationSeconds) || durationSeconds < POLL.durationMin || durationSeconds > POLL.durationMax) {
    return POLL_MESSAGES.duration
  }
  return null
}
