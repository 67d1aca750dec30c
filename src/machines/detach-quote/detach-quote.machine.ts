import { enqueueActions, fromPromise, setup, type ActorRefFrom, type AnyActorRef, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { postCalls } from '../../api/posts.calls'
import type { PostsEvent } from '../posts/posts.machine'
import { showToast } from '../toasts/notify'
import { DETACH_FAILED, QUOTE_DETACHED } from '../posts/quotes.rules'

// Detach quote, from the menu of a quote of the member's own post (docs/product.md, "Quotes"): a confirm dialog (it
// cannot be undone), then POST /posts/{id}/detach. Once the server agrees: 'Quote detached', and the post cache is
// told (`post.quote.detached`) so the quote shows "This post is unavailable" at once. A refusal toasts the server's
// words, else 'Could not detach the quote', and keeps the dialog for another try.

export interface DetachQuoteInput {
  quoteId: string
}

export interface DetachQuoteContext {
  quoteId: string
}

export type DetachQuoteEvent = { type: 'detach.ask' } | { type: 'detach.cancel' } | { type: 'detach.confirm' }

export const detachQuoteMachine = setup({
  types: {
    context: {} as DetachQuoteContext,
    events: {} as DetachQuoteEvent,
    input: {} as DetachQuoteInput,
  },
  actors: {
    detachQuote: fromPromise<void, { quoteId: string }>(({ input, signal }) => run(postCalls.detachQuote(input.quoteId), signal)),
  },
  actions: {
    notifyDetached: ({ system }) => showToast(system, 'success', QUOTE_DETACHED),
    notifyRefused: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, DETACH_FAILED)),
    // Enqueued, not sent from the action (see mute.machine.ts).
    showUnavailable: enqueueActions(({ context, system, enqueue }) => {
      const posts = system.get('posts') as AnyActorRef | undefined
      if (posts) enqueue.sendTo(posts, { type: 'post.quote.detached', id: context.quoteId } satisfies PostsEvent)
    }),
  },
}).createMachine({
  id: 'detachQuote',
  context: ({ input }) => ({ quoteId: input.quoteId }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'detach.ask': 'confirming' },
    },
    confirming: {
      on: { 'detach.cancel': 'idle', 'detach.confirm': 'detaching' },
    },
    detaching: {
      invoke: {
        id: 'detachQuote',
        src: 'detachQuote',
        input: ({ context }) => ({ quoteId: context.quoteId }),
        onDone: { target: 'detached', actions: ['notifyDetached', 'showUnavailable'] },
        onError: {
          target: 'confirming',
          actions: { type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error },
        },
      },
    },
    /** For good: a detached quote cannot be attached again. */
    detached: { type: 'final' },
  },
})

export type DetachQuoteMachine = typeof detachQuoteMachine
export type DetachQuoteRef = ActorRefFrom<DetachQuoteMachine>
