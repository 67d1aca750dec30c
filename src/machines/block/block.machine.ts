import { enqueueActions, fromPromise, setup, type ActorRefFrom, type AnyActorRef } from 'xstate'
import { blockCalls, type BlockedUser } from '../../api/blocks.calls'
import { run } from '../../api/calls'
import type { PostsEvent } from '../posts/posts.machine'
import { navigate } from '../lib/navigation'
import { showToast } from '../toasts/notify'

// Block User, from a post card's menu or another member's profile (docs/product.md, "Blocks"): ask, confirm, then
// POST /blocks/user/{id}. Once the server agrees: 'User blocked', the member's posts leave every list on screen (the
// post cache's `author.blocked`), and from a profile the member is taken home (`leaveTo: '/'`), since the profile is
// now absent to them. A refusal is silent and leaves everything as it was.

export const USER_BLOCKED = 'User blocked'

export interface BlockInput {
  userId: string
  /** Where to go once blocked (the profile goes to '/'); null stays (a post card). */
  leaveTo: string | null
}

export type BlockEvent = { type: 'block.ask' } | { type: 'block.cancel' } | { type: 'block.confirm' }

export const blockMachine = setup({
  types: {
    context: {} as BlockInput,
    events: {} as BlockEvent,
    input: {} as BlockInput,
    tags: {} as 'busy',
  },
  actors: {
    blockUser: fromPromise<BlockedUser, { userId: string }>(({ input, signal }) => run(blockCalls.blockUser(input.userId), signal)),
  },
  actions: {
    notifyBlocked: ({ system }) => showToast(system, 'success', USER_BLOCKED),
    // Enqueued, not sent from the action: a send from inside a running action makes the posts actor's own actions
    // run inside it too, which XState warns about and may not honour.
    hidePosts: enqueueActions(({ context, system, enqueue }) => {
      const posts = system.get('posts') as AnyActorRef | undefined
      if (posts) enqueue.sendTo(posts, { type: 'author.blocked', authorId: context.userId } satisfies PostsEvent)
    }),
    leave: ({ context }) => {
      if (context.leaveTo !== null) navigate(context.leaveTo)
    },
  },
}).createMachine({
  id: 'block',
  context: ({ input }) => input,
  initial: 'idle',
  states: {
    idle: {
      on: { 'block.ask': 'confirming' },
    },
    confirming: {
      on: { 'block.cancel': 'idle', 'block.confirm': 'blocking' },
    },
    blocking: {
      tags: ['busy'],
      invoke: {
        id: 'blockUser',
        src: 'blockUser',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: 'idle', actions: ['notifyBlocked', 'hidePosts', 'leave'] },
        // Silent: the member can try again from the same menu.
        onError: { target: 'idle' },
      },
    },
  },
})

export type BlockMachine = typeof blockMachine
export type BlockRef = ActorRefFrom<BlockMachine>
