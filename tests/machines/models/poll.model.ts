import type { AnyEventObject } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import type { Poll } from '../../../src/api/polls.calls'
import { POLL_MESSAGES } from '../../../src/api/contract/polls'
import { pollMachine } from '../../../src/machines/poll/poll.machine'
import { VOTE_FAILED } from '../../../src/machines/poll/poll.rules'
import type { MachineModel } from '../support/walks'

// A poll's vote form on a post card: picking options, voting, and the server's answers, on a single-choice poll and
// on a multiple-choice one. Walked by tests/machines/poll.test.ts and printed by `npm run paths -- poll`.

export const alreadyVoted = new Invalid({ status: 409, message: POLL_MESSAGES.alreadyVoted, fromServer: true, details: [] })
export const offline = new Network({ message: 'Unable to reach the server.' })

/** What each refusal says, inline and as a toast: the server's reason, else the form's own. */
export const refusalText = new Map<unknown, string>([
  [alreadyVoted, POLL_MESSAGES.alreadyVoted],
  [offline, VOTE_FAILED],
])

export const counted: Poll = {
  options: [
    { id: 'o1', text: 'Tea', votes: 3 },
    { id: 'o2', text: 'Coffee', votes: 1 },
  ],
  multiple: false,
  closesAt: '2030-01-01T00:00:00.000Z',
  votersCount: 4,
  ownVotes: ['o1'],
}

const events: AnyEventObject[] = [
  { type: 'poll.choose', optionId: 'o1' },
  { type: 'poll.choose', optionId: 'o2' },
  { type: 'poll.submit' },
  { type: 'xstate.done.actor.vote', output: counted },
  ...[...refusalText.keys()].map((error) => ({ type: 'xstate.error.actor.vote', error })),
]

const label = (event: AnyEventObject) =>
  event.type === 'poll.choose'
    ? `choose(${String(event.optionId)})`
    : event.type === 'xstate.error.actor.vote'
      ? `vote refused(${refusalText.get(event.error)})`
      : undefined

const serializeState = (s: { value: unknown; context: { choices: ReadonlyArray<string>; error: string | null } }) =>
  JSON.stringify({ value: s.value, choices: s.context.choices, error: s.context.error })

const walk = (name: string, multiple: boolean) => ({
  name,
  input: { postId: 'p1', multiple },
  options: () => ({
    input: { postId: 'p1', multiple },
    events,
    label,
    serializeState,
    edgesOnly: 'the choices are context: every order of picking and unpicking options is its own state',
  }),
})

export const pollModel = {
  name: 'poll',
  machine: pollMachine,
  walks: [walk('single choice', false), walk('multiple choice', true)],
} satisfies MachineModel
