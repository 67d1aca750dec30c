import type { Poll } from '../../api/polls.calls'
import { POLL_MESSAGES } from '../../api/contract/polls'

// What a poll on a post card shows (docs/product.md, "Polls"), as plain functions the poll actor, its view and the
// rules tests share. The poll is closed from `closesAt` on, by the member's clock; the server refuses late votes too.

export const VOTE_FAILED = 'Your vote could not be counted. Try again.'
export const FINAL_RESULTS = 'Final results'
export { POLL_MESSAGES }

export const isClosed = (poll: Pick<Poll, 'closesAt'>, now: number): boolean => Date.parse(poll.closesAt) <= now
export const hasVoted = (poll: Pick<Poll, 'ownVotes'>): boolean => poll.ownVotes.length > 0

/** Results once the member has voted or the poll has closed; before that, the options to vote for. */
export const showsResults = (poll: Pick<Poll, 'closesAt' | 'ownVotes'>, now: number): boolean => hasVoted(poll) || isClosed(poll, now)

/**
 * An option's share, in whole percent. As Mastodon: of the voters on a multiple-choice poll (so the shares may add up
 * to more than 100), of the votes on a single-choice one; 0 before anyone voted.
 */
export function percentOf(poll: Pick<Poll, 'options' | 'multiple' | 'votersCount'>, votes: number): number {
  const total = poll.multiple ? poll.votersCount : poll.options.reduce((sum, o) => sum + o.votes, 0)
  return total === 0 ? 0 : Math.round((votes / total) * 100)
}

/** The options with the most votes (none before the first vote), to mark the leaders. */
export function leaders(poll: Pick<Poll, 'options'>): ReadonlySet<string> {
  const most = Math.max(0, ...poll.options.map((o) => o.votes))
  return new Set(most === 0 ? [] : poll.options.filter((o) => o.votes === most).map((o) => o.id))
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** '3 days left', '5 hours left', '12 minutes left', 'Less than a minute left'; 'Final results' once closed. */
export function timeLeft(closesAt: string, now: number): string {
  const ms = Date.parse(closesAt) - now
  if (ms <= 0) return FINAL_RESULTS
  const minutes = Math.floor(ms / 60_000)
  if (minutes < 1) return 'Less than a minute left'
  if (minutes < 60) return `${plural(minutes, 'minute')} left`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${plural(hours, 'hour')} left`
  return `${plural(Math.floor(hours / 24), 'day')} left`
}

/** '1 person', '12 people': who voted. */
export const votersText = (count: number): string => `${count} ${count === 1 ? 'person' : 'people'}`

/** The choices after a click: one option on a single-choice poll, a toggle on a multiple-choice one. */
export function choose(choices: ReadonlyArray<string>, optionId: string, multiple: boolean): string[] {
  if (!multiple) return [optionId]
  return choices.includes(optionId) ? choices.filter((id) => id !== optionId) : [...choices, optionId]
}
