import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { pollCalls, type Poll } from '../../api/polls.calls'
import type { PostsEvent } from '../posts/posts.machine'
import { showToast } from '../toasts/notify'
import { choose, VOTE_FAILED } from './poll.rules'

// A poll's vote form on one post card (docs/product.md, "Polls"), spawned by the card while it shows the form.
// choosing (the member picks one option, or several on a multiple-choice poll) -> (poll.submit, with a choice)
// voting -> voted: the post cache stores the poll the server answered (`post.poll.voted`), so every card of the post
// shows the results; or back to choosing with the server's reason (already voted, closed, not visible) said inline
// and as a toast, the choices kept.

export type PollEvent = { type: 'poll.choose'; optionId: string } | { type: 'poll.submit' }

export interface PollInput {
  postId: string
  multiple: boolean
}

export interface PollContext extends PollInput {
  choices: ReadonlyArray<string>
  /** The last refusal, shown under the options until the next try. */
  error: string | null
}

export const pollMachine = setup({
  types: {
    context: {} as PollContext,
    events: {} as PollEvent,
    input: {} as PollInput,
    tags: {} as 'busy',
  },
  actors: {
    vote: fromPromise<Poll, { postId: string; choices: ReadonlyArray<string> }>(({ input, signal }) =>
      run(pollCalls.vote(input.postId, input.choices), signal),
    ),
  },
  actions: {
    choose: assign(({ context }, optionId: string) => ({ choices: choose(context.choices, optionId, context.multiple), error: null })),
    /** Every card of the post shows the counted vote: the post cache holds the post once. */
    store: enqueueActions(({ context, system, enqueue }, poll: Poll) => {
      const posts = system.get('posts')
      const voted: PostsEvent = { type: 'post.poll.voted', id: context.postId, poll }
      if (posts) enqueue.sendTo(posts, voted)
    }),
    refuse: enqueueActions(({ enqueue, system }, error: unknown) => {
      const message = serverMessageOr(error, VOTE_FAILED)
      enqueue.assign({ error: message })
      enqueue(() => showToast(system, 'error', message))
    }),
  },
  guards: {
    hasChoice: ({ context }) => context.choices.length > 0,
  },
}).createMachine({
  id: 'poll',
  context: ({ input }) => ({ postId: input.postId, multiple: input.multiple, choices: [], error: null }),
  initial: 'choosing',
  states: {
    choosing: {
      on: {
        'poll.choose': { actions: { type: 'choose', params: ({ event }) => event.optionId } },
        'poll.submit': { guard: 'hasChoice', target: 'voting' },
      },
    },
    voting: {
      tags: ['busy'],
      invoke: {
        id: 'vote',
        src: 'vote',
        input: ({ context }) => ({ postId: context.postId, choices: context.choices }),
        onDone: { target: 'voted', actions: { type: 'store', params: ({ event }) => event.output } },
        onError: { target: 'choosing', actions: { type: 'refuse', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    /** Counted: the card shows the results from the post cache. */
    voted: { type: 'final' },
  },
})

export type PollMachine = typeof pollMachine
export type PollRef = ActorRefFrom<PollMachine>
