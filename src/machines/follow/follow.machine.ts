import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { limitMessage, serverMessageOr } from '../../api/errors'
import { userCalls, type FollowResponse } from '../../api/users.calls'
import { showToast } from '../toasts/notify'

// One Follow/Unfollow button: the profile header spawns one, a followers/following list spawns one per row.
// A click flips the button and the count at once (optimistic); the server's answer then sets both exactly (its
// `followers` is the member's real count, whatever else happened meanwhile); a refusal puts them back as they were.
// While a request is in flight the button ignores clicks, so the requests never race each other.
// A private account is not followed at once: the server makes a follow request and the button says Requested until
// the member approves it (docs/product.md, "Private accounts and follow requests"); a click on Requested cancels it.

export interface FollowMessages {
  followed: string
  unfollowed: string
  /** A follow of a private account became a pending request. */
  requested: string
  /** The member cancelled their pending request. */
  cancelled: string
  /** Shown when the server refuses; null rolls back without a message (list rows are silent). */
  failed: string | null
}

/** Profile header (docs/product.md, "Follows"). */
export const PROFILE_FOLLOW_MESSAGES: FollowMessages = {
  followed: 'Following',
  unfollowed: 'Unfollowed',
  requested: 'Follow request sent',
  cancelled: 'Follow request cancelled',
  failed: 'Could not update the follow. Please try again.',
}

/** Followers/following rows (docs/product.md, "Follows": success toasts only). */
export const LIST_FOLLOW_MESSAGES: FollowMessages = {
  followed: 'Following user',
  unfollowed: 'Unfollowed user',
  requested: 'Follow request sent',
  cancelled: 'Follow request cancelled',
  failed: null,
}

export interface FollowInput {
  userId: string
  following: boolean
  /** The member's follow request to this account is pending (absent: not requested). */
  requested?: boolean
  /** The account is private, so a click on Follow shows Requested at once (absent: not known, Following at once). */
  privateAccount?: boolean
  followers: number
  messages: FollowMessages
}

interface Shown {
  following: boolean
  requested: boolean
  followers: number
}

export interface FollowContext extends Shown {
  userId: string
  privateAccount: boolean
  messages: FollowMessages
  /** What the button showed before the optimistic flip, for the rollback and the toast. */
  before: Shown | null
}

export type FollowEvent = { type: 'follow.toggle' }

/** What a click asks for and shows at once: Follow becomes Following (or Requested), the others go back to Follow. */
function flipped(context: FollowContext): Shown {
  if (context.following) return { following: false, requested: false, followers: Math.max(0, context.followers - 1) }
  if (context.requested) return { following: false, requested: false, followers: context.followers }
  return context.privateAccount
    ? { following: false, requested: true, followers: context.followers }
    : { following: true, requested: false, followers: context.followers + 1 }
}

export const followMachine = setup({
  types: {
    context: {} as FollowContext,
    events: {} as FollowEvent,
    input: {} as FollowInput,
    tags: {} as 'busy',
  },
  actors: {
    setFollow: fromPromise<FollowResponse, { userId: string; follow: boolean }>(({ input, signal }) =>
      run(input.follow ? userCalls.follow(input.userId) : userCalls.unfollow(input.userId), signal),
    ),
  },
  guards: {
    isFollowing: ({ context }) => context.following,
    isRequested: ({ context }) => context.requested,
  },
  actions: {
    flip: assign(({ context }) => ({
      before: { following: context.following, requested: context.requested, followers: context.followers },
      ...flipped(context),
    })),
    applyAnswer: assign((_, answer: FollowResponse) => ({
      following: answer.following,
      requested: answer.requested && !answer.following,
      followers: answer.followers,
      before: null,
    })),
    rollBack: assign(({ context }) => ({ ...(context.before ?? {}), before: null })),
    // Said from the answer: a request is never "Following" nor "Unfollowed".
    notifySuccess: ({ context, system }, answer: FollowResponse) => {
      const { messages, before } = context
      const text = answer.following
        ? messages.followed
        : answer.requested
          ? messages.requested
          : before?.requested
            ? messages.cancelled
            : messages.unfollowed
      showToast(system, 'success', text)
    },
    // Lists fail silently (no `failed` text), except for a rate limit's wait; the profile says the server's reason.
    notifyFailure: ({ context, system }, error: unknown) => {
      const limited = limitMessage(error)
      if (context.messages.failed !== null) showToast(system, 'error', serverMessageOr(error, context.messages.failed))
      else if (limited) showToast(system, 'error', limited)
    },
  },
}).createMachine({
  id: 'follow',
  context: ({ input }) => ({
    userId: input.userId,
    following: input.following,
    requested: !input.following && input.requested === true,
    privateAccount: input.privateAccount === true,
    followers: input.followers,
    messages: input.messages,
    before: null,
  }),
  initial: 'settled',
  states: {
    // Which button the member sees: Unfollow, Requested or Follow.
    settled: {
      always: [
        { guard: 'isFollowing', target: 'following' },
        { guard: 'isRequested', target: 'requested' },
        { target: 'notFollowing' },
      ],
    },
    notFollowing: {
      on: { 'follow.toggle': { target: 'saving', actions: 'flip' } },
    },
    requested: {
      on: { 'follow.toggle': { target: 'saving', actions: 'flip' } },
    },
    following: {
      on: { 'follow.toggle': { target: 'saving', actions: 'flip' } },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'setFollow',
        src: 'setFollow',
        // After the flip, Following or Requested mean the member asked to follow; Follow means unfollow or cancel.
        input: ({ context }) => ({ userId: context.userId, follow: context.following || context.requested }),
        onDone: {
          target: 'settled',
          // The toast first: it reads `before` (was this a cancelled request?), which the answer clears.
          actions: [
            { type: 'notifySuccess', params: ({ event }) => event.output },
            { type: 'applyAnswer', params: ({ event }) => event.output },
          ],
        },
        onError: {
          target: 'settled',
          actions: ['rollBack', { type: 'notifyFailure', params: ({ event }: { event: ErrorActorEvent }) => event.error }],
        },
      },
    },
  },
})

export type FollowMachine = typeof followMachine
export type FollowRef = ActorRefFrom<FollowMachine>
