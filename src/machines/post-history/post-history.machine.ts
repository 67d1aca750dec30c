import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate'
import { run } from '../../api/calls'
import { postCalls, type PostHistoryPage, type PostVersion } from '../../api/posts.calls'
import { appendPage } from '../lib/paging'
import { HISTORY_MESSAGES } from './post-history.rules'

// A post's edit history (docs/product.md, "Editing a post"), for the History dialog the card's '(edited)' opens:
// closed -> open.loading -> open.ready (Load more: open.loadingMore, which keeps the versions shown and says so when it
// fails) or open.failed (Try again). Closing drops the versions; opening again reads them afresh (the post may have
// been edited meanwhile).

export type PostHistoryEvent =
  | { type: 'history.open' }
  | { type: 'history.close' }
  | { type: 'history.more' }
  | { type: 'history.retry' }

export interface PostHistoryContext {
  postId: string
  versions: PostVersion[]
  nextCursor: string | null
  error: string | null
}

export const postHistoryMachine = setup({
  types: {
    context: {} as PostHistoryContext,
    events: {} as PostHistoryEvent,
    input: {} as { postId: string },
    tags: {} as 'open' | 'busy',
  },
  actors: {
    loadPage: fromPromise<PostHistoryPage, { postId: string; cursor: string | null }>(({ input, signal }) =>
      run(postCalls.getPostHistory(input.postId, input.cursor), signal),
    ),
  },
  actions: {
    reset: assign({ versions: [], nextCursor: null, error: null }),
    append: assign(({ context }, page: PostHistoryPage) => ({
      versions: appendPage(context.versions, page.versions),
      nextCursor: page.nextCursor,
      error: null,
    })),
    fail: assign((_, error: string) => ({ error })),
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
  },
}).createMachine({
  id: 'postHistory',
  context: ({ input }) => ({ postId: input.postId, versions: [], nextCursor: null, error: null }),
  initial: 'closed',
  states: {
    closed: {
      on: { 'history.open': { target: 'open', actions: 'reset' } },
    },
    open: {
      tags: ['open'],
      initial: 'loading',
      on: { 'history.close': { target: 'closed', actions: 'reset' } },
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadPage',
            src: 'loadPage',
            input: ({ context }) => ({ postId: context.postId, cursor: null }),
            onDone: { target: 'ready', actions: { type: 'append', params: ({ event }) => event.output } },
            onError: { target: 'failed', actions: { type: 'fail', params: HISTORY_MESSAGES.failed } },
          },
        },
        ready: {
          on: { 'history.more': { guard: 'hasMore', target: 'loadingMore' } },
        },
        loadingMore: {
          tags: ['busy'],
          invoke: {
            id: 'loadPage',
            src: 'loadPage',
            input: ({ context }) => ({ postId: context.postId, cursor: context.nextCursor }),
            onDone: { target: 'ready', actions: { type: 'append', params: ({ event }) => event.output } },
            onError: { target: 'ready', actions: { type: 'fail', params: HISTORY_MESSAGES.moreFailed } },
          },
        },
        failed: {
          on: { 'history.retry': { target: 'loading' } },
        },
      },
    },
  },
})

export type PostHistoryMachine = typeof postHistoryMachine
export type PostHistoryRef = ActorRefFrom<PostHistoryMachine>
