import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { describeError, isApiError, serverMessageOr } from '../../api/errors'
import { listCalls, type List, type ListDetail, type ListMember, type Subscription } from '../../api/lists.calls'
import { showToast } from '../toasts/notify'
import { canSubscribe, LIST_LOAD_FAILED, SUBSCRIBE_FAILED, SUBSCRIBED, UNSUBSCRIBE_FAILED, UNSUBSCRIBED } from '../lists/lists.rules'

// A list's page, /lists/{id} (docs/product.md, "Lists"): its name, description, owner, counts and first members, read
// when the page opens (loading -> ready; a list that does not exist or that the member may not see -> missing; any
// other failure -> failed with Try again). Someone else's list offers Subscribe / Unsubscribe: 'Subscribed to list' /
// 'Unsubscribed from list', else the server's words or 'Failed to subscribe' / 'Failed to unsubscribe'. The timeline
// below it is the home feed's actor with the list as its source (src/machines/feed).

export type ListPageEvent = { type: 'listPage.retry' } | { type: 'listPage.subscribe' } | { type: 'listPage.unsubscribe' }

export interface ListPageInput {
  listId: string
  viewerId: string
}

export interface ListPageContext {
  listId: string
  viewerId: string
  list: List | null
  members: ReadonlyArray<ListMember>
  error: string | null
}

export const listPageMachine = setup({
  types: {
    context: {} as ListPageContext,
    events: {} as ListPageEvent,
    input: {} as ListPageInput,
    tags: {} as 'busy',
  },
  actors: {
    loadList: fromPromise<ListDetail, { id: string }>(({ input, signal }) => run(listCalls.getList(input.id), signal)),
    subscription: fromPromise<Subscription, { id: string; on: boolean }>(({ input, signal }) =>
      run(input.on ? listCalls.subscribe(input.id) : listCalls.unsubscribe(input.id), signal),
    ),
  },
  actions: {
    show: assign((_, detail: ListDetail) => ({ list: detail.list, members: detail.members, error: null })),
    setError: assign((_, error: unknown) => ({ error: describeError(error, LIST_LOAD_FAILED) })),
    applySubscription: assign(({ context }, s: Subscription) => ({
      list: context.list ? { ...context.list, subscribed: s.subscribed, subscriberCount: s.subscriberCount } : null,
    })),
    notifySubscribed: ({ system }, s: Subscription) => showToast(system, 'success', s.subscribed ? SUBSCRIBED : UNSUBSCRIBED),
    notifyRefused: ({ context, system }, error: unknown) =>
      showToast(system, 'error', serverMessageOr(error, context.list?.subscribed ? UNSUBSCRIBE_FAILED : SUBSCRIBE_FAILED)),
  },
  guards: {
    isMissing: (_, error: unknown) => isApiError(error) && error._tag === 'NotFound',
    canSubscribe: ({ context }) => context.list !== null && canSubscribe(context.list, context.viewerId) && !context.list.subscribed,
    canUnsubscribe: ({ context }) => context.list !== null && canSubscribe(context.list, context.viewerId) && context.list.subscribed,
  },
}).createMachine({
  id: 'listPage',
  context: ({ input }) => ({ listId: input.listId, viewerId: input.viewerId, list: null, members: [], error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadList',
        src: 'loadList',
        input: ({ context }) => ({ id: context.listId }),
        onDone: { target: 'ready', actions: { type: 'show', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isMissing', params: ({ event }: { event: ErrorActorEvent }) => event.error }, target: 'missing' },
          { target: 'failed', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
        ],
      },
    },
    /** 'List not found': it does not exist, or the member may not see it. */
    missing: {},
    failed: {
      on: { 'listPage.retry': { target: 'loading' } },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'listPage.subscribe': { guard: 'canSubscribe', target: 'subscribing' },
            'listPage.unsubscribe': { guard: 'canUnsubscribe', target: 'unsubscribing' },
          },
        },
        subscribing: {
          tags: ['busy'],
          invoke: {
            id: 'subscribe',
            src: 'subscription',
            input: ({ context }) => ({ id: context.listId, on: true }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'applySubscription', params: ({ event }) => event.output },
                { type: 'notifySubscribed', params: ({ event }) => event.output },
              ],
            },
            onError: { target: 'idle', actions: { type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
          },
        },
        unsubscribing: {
          tags: ['busy'],
          invoke: {
            id: 'unsubscribe',
            src: 'subscription',
            input: ({ context }) => ({ id: context.listId, on: false }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'applySubscription', params: ({ event }) => event.output },
                { type: 'notifySubscribed', params: ({ event }) => event.output },
              ],
            },
            onError: { target: 'idle', actions: { type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
          },
        },
      },
    },
  },
})

export type ListPageMachine = typeof listPageMachine
export type ListPageRef = ActorRefFrom<ListPageMachine>
