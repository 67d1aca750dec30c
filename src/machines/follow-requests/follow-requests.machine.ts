import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { isApiError, serverMessageOr } from '../../api/errors'
import { followRequestCalls, type FollowRequest, type FollowRequestsPage } from '../../api/follow-requests.calls'
import { firstPageState, nextPageState } from '../lib/page-states'
import { appendPage } from '../lib/paging'
import { showToast } from '../toasts/notify'
import { APPROVE_FAILED, DECLINE_FAILED, REQUEST_APPROVED, REQUEST_DECLINED } from './follow-requests.rules'

// The member's incoming follow requests (docs/product.md, "Private accounts and follow requests"): Settings -> Privacy
// & Safety lists them, the Notifications screen counts them. Opened with the screen, it reads GET /follow-requests
// (spinner), then lists the requests (Load more while the server gives a next cursor) with Approve and Decline on
// each row. One answer saves at a time: that row shows it is busy and the other buttons wait, so two answers never
// race. The row goes once the server agrees (not before: a refused answer leaves the list exactly as it was) with a
// success toast. Unlike follow buttons in lists, a refusal is not silent: the owner must know the requester is still
// waiting, so it toasts the server's words, else 'Failed to approve request' / 'Failed to decline request'. A 404
// means the request is gone already (the requester cancelled it), so its row goes too. The followers count an approval
// answers is not kept: nothing in the app holds the member's own count (the session's user has none, a profile reads
// it fresh), so there is no cache to bring up to date.

export type Answer = 'approve' | 'decline'

export type FollowRequestsEvent =
  | { type: 'requests.retry' }
  | { type: 'requests.more' }
  | { type: 'request.approve'; userId: string }
  | { type: 'request.decline'; userId: string }

/** The answer being saved, as sent to the server. */
export interface PendingAnswer {
  answer: Answer
  userId: string
}

export interface FollowRequestsContext {
  requests: ReadonlyArray<FollowRequest>
  nextCursor: string | null
  /** The answer being saved; its row shows it is busy. */
  pending: PendingAnswer | null
}

const initialContext: FollowRequestsContext = { requests: [], nextCursor: null, pending: null }

function save({ answer, userId }: PendingAnswer, signal: AbortSignal): Promise<void> {
  const call = answer === 'approve' ? followRequestCalls.approve(userId) : followRequestCalls.decline(userId)
  return run(call, signal).then(() => undefined)
}

const withoutRow = (context: FollowRequestsContext) =>
  context.requests.filter((request) => request.id !== context.pending?.userId)

export const followRequestsMachine = setup({
  types: {
    context: {} as FollowRequestsContext,
    events: {} as FollowRequestsEvent,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    loadRequests: fromPromise<FollowRequestsPage, { cursor: string | null }>(({ input, signal }) =>
      run(followRequestCalls.getFollowRequests(input.cursor), signal),
    ),
    answer: fromPromise<void, PendingAnswer>(({ input, signal }) => save(input, signal)),
  },
  actions: {
    showPage: assign((_, page: FollowRequestsPage) => ({ requests: page.requests, nextCursor: page.nextCursor })),
    // A request can be on two pages when newer ones arrived in between; it is listed once.
    appendPage: assign(({ context }, page: FollowRequestsPage) => ({
      requests: appendPage(context.requests, page.requests),
      nextCursor: page.nextCursor,
    })),
    begin: assign((_, pending: PendingAnswer) => ({ pending })),
    /** The server agreed: the row goes. */
    removeRow: assign(({ context }) => ({ requests: withoutRow(context), pending: null })),
    notifyAnswered: ({ context, system }) => {
      showToast(system, 'success', context.pending?.answer === 'decline' ? REQUEST_DECLINED : REQUEST_APPROVED)
    },
    /** The server refused: the list stays as it was, except a request that no longer exists. */
    refuse: assign(({ context }, error: unknown) => ({
      requests: isApiError(error) && error._tag === 'NotFound' ? withoutRow(context) : context.requests,
      pending: null,
    })),
    notifyRefused: ({ context, system }, error: unknown) => {
      const fallback = context.pending?.answer === 'decline' ? DECLINE_FAILED : APPROVE_FAILED
      showToast(system, 'error', serverMessageOr(error, fallback))
    },
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
    isListed: ({ context }, userId: string) => context.requests.some((request) => request.id === userId),
  },
}).createMachine({
  id: 'followRequests',
  context: initialContext,
  initial: 'loading',
  states: {
    loading: firstPageState({ id: 'loadRequests', src: 'loadRequests', show: 'showPage' }),
    failed: {
      on: { 'requests.retry': 'loading' },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'requests.more': { guard: 'hasMore', target: 'loadingMore' },
            'request.approve': {
              guard: { type: 'isListed', params: ({ event }) => event.userId },
              target: 'answering',
              actions: { type: 'begin', params: ({ event }) => ({ answer: 'approve' as const, userId: event.userId }) },
            },
            'request.decline': {
              guard: { type: 'isListed', params: ({ event }) => event.userId },
              target: 'answering',
              actions: { type: 'begin', params: ({ event }) => ({ answer: 'decline' as const, userId: event.userId }) },
            },
          },
        },
        answering: {
          tags: ['busy'],
          invoke: {
            id: 'answer',
            src: 'answer',
            input: ({ context }) => context.pending as PendingAnswer,
            onDone: {
              target: 'idle',
              actions: ['notifyAnswered', 'removeRow'],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error },
                { type: 'refuse', params: ({ event }: { event: ErrorActorEvent }) => event.error },
              ],
            },
          },
        },
        loadingMore: nextPageState({
          src: 'loadRequests',
          append: 'appendPage',
          cursor: (context: FollowRequestsContext) => context.nextCursor,
          tags: ['busy'],
        }),
      },
    },
  },
})

export type FollowRequestsMachine = typeof followRequestsMachine
export type FollowRequestsRef = ActorRefFrom<FollowRequestsMachine>
