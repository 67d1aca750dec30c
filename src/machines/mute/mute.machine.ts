import { assign, enqueueActions, fromPromise, not, setup, type ActorRefFrom, type AnyActorRef, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { muteCalls, type MutedUser } from '../../api/mutes.calls'
import type { PostsEvent } from '../posts/posts.machine'
import { showToast } from '../toasts/notify'
import { checkReason, MUTE_FAILED, UNMUTE_FAILED, USER_UNMUTED } from '../mutes/mutes.rules'

// Mute @user, from a post card's menu or another member's profile: a small confirm dialog with an optional reason (at
// most 200 characters), then POST /mutes/user. Once the server agrees: 'User muted successfully', and
// the post cache is told (`author.muted`) so the Home feed drops the member's posts at once. Unlike a block, nothing
// else changes: mute is feed-only, so the profile and the post page keep showing them. A refusal toasts the server's
// words, else 'Failed to mute', and keeps the dialog (and the reason) for another try.
// On a profile the member may already be muted (the profile says so, `muted`): then the button unmutes at once, with
// 'User unmuted successfully' or the server's words, else 'Failed to unmute'. Their posts come back to Home at the
// next load (nothing is pushed into the list).

export const USER_MUTED = 'User muted successfully'

export interface MuteInput {
  userId: string
  /** Whether the viewer has muted the member already (a profile knows; a post menu does not, and says false). */
  muted?: boolean
}

export interface MuteContext {
  userId: string
  muted: boolean
  reason: string
}

export type MuteEvent =
  | { type: 'mute.ask' }
  | { type: 'mute.cancel' }
  | { type: 'mute.reason.input'; value: string }
  | { type: 'mute.confirm' }
  | { type: 'mute.undo' }

export const muteMachine = setup({
  types: {
    context: {} as MuteContext,
    events: {} as MuteEvent,
    input: {} as MuteInput,
    tags: {} as 'busy',
  },
  actors: {
    muteUser: fromPromise<MutedUser, { userId: string; reason: string }>(({ input, signal }) =>
      run(muteCalls.muteUser(input.userId, input.reason || undefined), signal),
    ),
    unmuteUser: fromPromise<void, { userId: string }>(({ input, signal }) => run(muteCalls.unmuteUser(input.userId), signal)),
  },
  actions: {
    clearReason: assign({ reason: '' }),
    typeReason: assign((_, value: string) => ({ reason: value })),
    markMuted: assign({ muted: true }),
    markUnmuted: assign({ muted: false }),
    notifyMuted: ({ system }) => showToast(system, 'success', USER_MUTED),
    notifyUnmuted: ({ system }) => showToast(system, 'success', USER_UNMUTED),
    notifyRefused: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, MUTE_FAILED)),
    notifyUnmuteRefused: ({ system }, error: unknown) =>
      showToast(system, 'error', serverMessageOr(error, UNMUTE_FAILED)),
    // Enqueued, not sent from the action: a send from inside a running action makes the posts actor's own actions
    // run inside it too, which XState warns about and may not honour.
    hideFromFeed: enqueueActions(({ context, system, enqueue }) => {
      const posts = system.get('posts') as AnyActorRef | undefined
      if (posts) enqueue.sendTo(posts, { type: 'author.muted', authorId: context.userId } satisfies PostsEvent)
    }),
  },
  guards: {
    reasonIsValid: ({ context }) => checkReason(context.reason).ok,
    isMuted: ({ context }) => context.muted,
  },
}).createMachine({
  id: 'mute',
  context: ({ input }) => ({ userId: input.userId, muted: input.muted ?? false, reason: '' }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'mute.ask': { guard: not('isMuted'), target: 'confirming', actions: 'clearReason' },
        'mute.undo': { guard: 'isMuted', target: 'unmuting' },
      },
    },
    unmuting: {
      tags: ['busy'],
      invoke: {
        id: 'unmuteUser',
        src: 'unmuteUser',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: 'idle', actions: ['markUnmuted', 'notifyUnmuted'] },
        onError: {
          target: 'idle',
          actions: { type: 'notifyUnmuteRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error },
        },
      },
    },
    confirming: {
      on: {
        'mute.cancel': 'idle',
        'mute.reason.input': { actions: { type: 'typeReason', params: ({ event }) => event.value } },
        'mute.confirm': { guard: 'reasonIsValid', target: 'muting' },
      },
    },
    muting: {
      tags: ['busy'],
      invoke: {
        id: 'muteUser',
        src: 'muteUser',
        input: ({ context }) => ({ userId: context.userId, reason: checkReason(context.reason).ok ? context.reason.trim() : '' }),
        onDone: { target: 'idle', actions: ['markMuted', 'notifyMuted', 'hideFromFeed'] },
        onError: {
          target: 'confirming',
          actions: { type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error },
        },
      },
    },
  },
})

export type MuteMachine = typeof muteMachine
export type MuteRef = ActorRefFrom<MuteMachine>
