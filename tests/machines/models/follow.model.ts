import type { AnyEventObject } from 'xstate'
import { Forbidden, Invalid, Network } from '../../../src/api/errors'
import { followMachine, LIST_FOLLOW_MESSAGES, PROFILE_FOLLOW_MESSAGES, type FollowMessages } from '../../../src/machines/follow/follow.machine'
import type { MachineModel } from '../support/walks'

// The Follow button's model: clicks and the server's answers, on the profile header and on a list row (the same
// machine with different messages). Walked by tests/machines/follow.test.ts and printed by `npm run paths -- follow`.

export const blocked = new Forbidden({ message: 'You cannot follow this member', fromServer: true })
const offline = new Network({ message: 'Unable to reach the server.' })
/** A rate limit's refusal: said even on a list row, whose other failures are silent. */
export const limited = new Invalid({ status: 429, message: 'Too many follows. Try again in 3 hours.', fromServer: true, details: [] })

const followed = { following: true, requested: false, followers: 8 }
const unfollowed = { following: false, requested: false, followers: 6 }
/** A private account: the follow became a pending request. */
const requested = { following: false, requested: true, followers: 7 }
const answers = new Map<unknown, string>([
  [followed, 'following, 8'],
  [unfollowed, 'not following, 6'],
  [requested, 'requested, 7'],
])
const label = (event: AnyEventObject) => (answers.has(event.output) ? `${event.type}(${answers.get(event.output)})` : undefined)

const events: AnyEventObject[] = [
  { type: 'follow.toggle' },
  { type: 'xstate.done.actor.setFollow', output: followed },
  { type: 'xstate.done.actor.setFollow', output: unfollowed },
  { type: 'xstate.done.actor.setFollow', output: requested },
  { type: 'xstate.error.actor.setFollow', error: blocked },
  { type: 'xstate.error.actor.setFollow', error: offline },
  { type: 'xstate.error.actor.setFollow', error: limited },
]

const start = { userId: 'user-ann', following: false, requested: false, followers: 7 }

const button = (name: string, messages: FollowMessages, privateAccount: boolean) => {
  const input = { ...start, privateAccount, messages }
  return {
    name,
    messages,
    /** The button's input: not following Ann yet, 7 followers; her account is private or not. */
    input,
    options: () => ({
      input,
      events,
      label,
      serializeState: (s: {
        value: unknown
        context: { following: boolean; requested: boolean; followers: number; before: unknown }
      }) =>
        JSON.stringify({
          value: s.value,
          following: s.context.following,
          requested: s.context.requested,
          followers: s.context.followers,
          before: s.context.before,
        }),
    }),
  }
}

export const followModel = {
  name: 'follow',
  machine: followMachine,
  walks: [
    button('profile header', PROFILE_FOLLOW_MESSAGES, false),
    button('profile header of a private account', PROFILE_FOLLOW_MESSAGES, true),
    button('list row', LIST_FOLLOW_MESSAGES, false),
  ],
} satisfies MachineModel
