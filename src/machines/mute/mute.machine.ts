import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { muteCalls, type MutedUser } from '../../api/mutes.calls'
import type { PostsEvent } from '../posts/posts.machine'
import { showToast } from '../toasts/notify'
import { checkReason, MUTE_FAILED } from '../mutes/mutes.rules'

// Mute @user, from a post card's menu or another member's profile: a small confirm dialog with an optional reason (at
// most 200 characters, spec section 5), then POST /mutes/user. Once the server agrees: 'User muted successfully', and
// the post cache is told (`author.muted`) so the Home feed drops the member's posts at once. Unlike a block, nothing
// else changes: mute is feed-only, so the profile and the post page keep showing them. A refusal toasts the server's
// words, else 'Failed to mute', and keeps the dialog (and the reason) for another try.

export const USER_MUTED = 'User muted successfully'

export interface MuteInput {
  userId: string
}

export interface MuteContext extends MuteInput {
  reason: string
}

export type MuteEvent =
  | { type: 'mute.ask' }
  | { type: 'mute.cancel' }
  | { type: 'mute.reason.input'; value: string }
  | { type: 'mute.confirm' }

interface PostsLike {
  send(event: PostsEvent): void
}

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
  },
  actions: {
    clearReason: assign({ reason: '' }),
    typeReason: assign((_, value: string) => ({ reason: value })),
    notifyMuted: ({ system }) => showToast(system, 'success', USER_MUTED),
    notifyRefused: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, MUTE_FAILED)),
    hideFromFeed: ({ context, system }) =>
      (system.get('posts') as PostsLike | undefined)?.send({ type: 'author.muted', authorId: context.userId }),
  },
  guards: {
    reasonIsValid: ({ context }) => checkReason(context.reason).ok,
  },
}).createMachine({
  id: 'mute',
  context: ({ input }) => ({ userId: input.userId, reason: '' }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'mute.ask': { target: 'confirming', actions: 'clearReason' } },
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
        onDone: { target: 'idle', actions: ['notifyMuted', 'hideFromFeed'] },
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
