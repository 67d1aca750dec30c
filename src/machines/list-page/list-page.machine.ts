import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { describeError, isApiError, serverMessageOr } from '../../api/errors'
import { listCalls, type List, type ListDetail, type ListMember, type Subscription } from '../../api/lists.calls'
import { appendPage, MORE_FAILED } from '../lib/paging'
import { showToast } from '../toasts/notify'
import { canSubscribe, LIST_LOAD_FAILED, SUBSCRIBE_FAILED, SUBSCRIBED, UNSUBSCRIBE_FAILED, UNSUBSCRIBED } from '../lists/lists.rules'

// A list's page, /lists/{id} (docs/product.md, "Lists"): its name, description, owner, counts and first members, read
// when the page opens (loading -> ready; a list that does not exist or that the member may not see -> missing; any
// other failure -> failed with Try again). Someone else's list offers Subscribe / Unsubscribe: 'Subscribed to list' /
// 'Unsubscribed from list', else the server's words or 'Failed to subscribe' / 'Failed to unsubscribe'. The timeline
// below it is the home feed's actor with the list as its source (src/machines/feed). The members come with the list, a
// page at a time: the page shows the first few, and its Members dialog all of them read so far with Load more while
// the server gives a next cursor (a failed page keeps the rows and says 'Could not load more. Please try again.').

export type ListPageEvent =
  | { type: 'listPage.retry' }
  | { type: 'listPage.subscribe' }
  | { type: 'listPage.unsubscribe' }
  | { type: 'listPage.moreMembers' }

export interface ListPageInput {
  listId: string
  viewerId: string
}

export interface ListPageContext {
  listId: string
  viewerId: string
  list: List | null
  members: ReadonlyArray<ListMember>
  /** The next page of members, or null when they are all read. */
  membersCursor: string | null
  /** Why the last Load more of members failed. */
  membersError: string | null
  error: string | null
}

const listPageSetup = setup({
  types: {
    context: {} as ListPageContext,
    events: {} as ListPageEvent,
    input: {} as ListPageInput,
    tags: {} as 'busy',
  },
  actors: {
    loadList: fromPromise<ListDetail, { id: string }>(({ input, signal }) => run(listCalls.getList(input.id), signal)),
    loadMembers: fromPromise<ListDetail, { id: string; cursor: string | null }>(({ input, signal }) =>
      run(listCalls.getList(input.id, input.cursor), signal),
    ),
    subscription: fromPromise<Subscription, { id: string; on: boolean }>(({ input, signal }) =>
      run(input.on ? listCalls.subscribe(input.id) : listCalls.unsubscribe(input.id), signal),
    ),
  },
  actions: {
    show: assign((_, detail: ListDetail) => ({
      list: detail.list,
      members: detail.members,
      membersCursor: detail.nextCursor,
      membersError: null,
      error: null,
    })),
    showMoreMembers: assign(({ context }, detail: ListDetail) => ({
      list: context.list ? { ...context.list, memberCount: detail.list.memberCount } : detail.list,
      members: appendPage(context.members, detail.members),
      membersCursor: detail.nextCursor,
      membersError: null,
    })),
    setMembersError: assign({ membersError: MORE_FAILED }),
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
    hasMoreMembers: ({ context }) => context.membersCursor !== null,
    canSubscribe: ({ context }) => context.list !== null && canSubscribe(context.list, context.viewerId) && !context.list.subscribed,
    canUnsubscribe: ({ context }) => context.list !== null && canSubscribe(context.list, context.viewerId) && context.list.subscribed,
  },
})

/** Subscribe or Unsubscribe on its way (the buttons wait): the counts the server answers, and a toast either way. */
const subscriptionState = (on: boolean) =>
  listPageSetup.createStateConfig({
    tags: ['busy'],
    invoke: {
      id: on ? 'subscribe' : 'unsubscribe',
      src: 'subscription',
      input: ({ context }) => ({ id: context.listId, on }),
      onDone: {
        target: 'idle',
        actions: [
          { type: 'applySubscription', params: ({ event }) => event.output },
          { type: 'notifySubscribed', params: ({ event }) => event.output },
        ],
      },
      onError: { target: 'idle', actions: { type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
    },
  })

export const listPageMachine = listPageSetup.createMachine({
  id: 'listPage',
  context: ({ input }) => ({
    listId: input.listId,
    viewerId: input.viewerId,
    list: null,
    members: [],
    membersCursor: null,
    membersError: null,
    error: null,
  }),
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
            'listPage.moreMembers': { guard: 'hasMoreMembers', target: 'loadingMembers' },
          },
        },
        /** The next page of members; the rows read so far stay, and a failure says so (Load more tries again). */
        loadingMembers: {
          invoke: {
            id: 'loadMembers',
            src: 'loadMembers',
            input: ({ context }) => ({ id: context.listId, cursor: context.membersCursor }),
            onDone: { target: 'idle', actions: { type: 'showMoreMembers', params: ({ event }) => event.output } },
            onError: { target: 'idle', actions: 'setMembersError' },
          },
        },
        subscribing: subscriptionState(true),
        unsubscribing: subscriptionState(false),
      },
    },
  },
})

export type ListPageMachine = typeof listPageMachine
export type ListPageRef = ActorRefFrom<ListPageMachine>
