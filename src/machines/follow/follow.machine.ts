import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { userCalls, type FollowResponse } from '../../api/users.calls'
import { showToast } from '../toasts/notify'

// One Follow/Unfollow button: the profile header spawns one, a followers/following list spawns one per row.
// A click flips the button and the count at once (optimistic); the server's answer then sets both exactly (its
// `followers` is the member's real count, whatever else happened meanwhile); a refusal puts them back as they were.
// While a request is in flight the button ignores clicks, so the requests never race each other.

export interface FollowMessages {
  followed: string
  unfollowed: string
  /** Shown when the server refuses; null rolls back without a message (list rows are silent). */
  failed: string | null
}

/** Profile header (docs/product.md, "Follows"). */
export const PROFILE_FOLLOW_MESSAGES: FollowMessages = {
  followed: 'Following',
  unfollowed: 'Unfollowed',
  failed: 'Could not update the follow. Please try again.',
}

/** Followers/following rows (docs/product.md, "Follows": success toasts only). */
export const LIST_FOLLOW_MESSAGES: FollowMessages = {
  followed: 'Following user',
  unfollowed: 'Unfollowed user',
  failed: null,
}

export interface FollowInput {
  userId: string
  following: boolean
  followers: number
  messages: FollowMessages
}

export interface FollowContext extends FollowInput {
  /** What the button showed before the optimistic flip, for the rollback. */
  before: { following: boolean; followers: number } | null
}

export type FollowEvent = { type: 'follow.toggle' }

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
  actions: {
    flip: assign(({ context }) => ({
      before: { following: context.following, followers: context.followers },
      following: !context.following,
      followers: Math.max(0, context.followers + (context.following ? -1 : 1)),
    })),
    applyAnswer: assign((_, answer: FollowResponse) => ({
      following: answer.following,
      followers: answer.followers,
      before: null,
    })),
    rollBack: assign(({ context }) => ({ ...(context.before ?? {}), before: null })),
    notifySuccess: ({ context, system }, answer: FollowResponse) =>
      showToast(system, 'success', answer.following ? context.messages.followed : context.messages.unfollowed),
    // Lists fail silently (no `failed` text); the profile says the server's reason.
    notifyFailure: ({ context, system }, error: unknown) => {
      if (context.messages.failed !== null) showToast(system, 'error', serverMessageOr(error, context.messages.failed))
    },
  },
}).createMachine({
  id: 'follow',
  context: ({ input }) => ({ ...input, before: null }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'follow.toggle': { target: 'saving', actions: 'flip' } },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'setFollow',
        src: 'setFollow',
        // After the flip, `following` is what the member asked for.
        input: ({ context }) => ({ userId: context.userId, follow: context.following }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'applyAnswer', params: ({ event }) => event.output },
            { type: 'notifySuccess', params: ({ event }) => event.output },
          ],
        },
        onError: {
          target: 'idle',
          actions: ['rollBack', { type: 'notifyFailure', params: ({ event }: { event: ErrorActorEvent }) => event.error }],
        },
      },
    },
  },
})

export type FollowMachine = typeof followMachine
export type FollowRef = ActorRefFrom<FollowMachine>
