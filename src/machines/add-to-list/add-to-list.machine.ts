import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { listCalls, type List, type ListsPage } from '../../api/lists.calls'
import { showToast } from '../toasts/notify'
import { MEMBER_ADD_FAILED, MEMBER_ADDED, MEMBER_REMOVE_FAILED, MEMBER_REMOVED } from '../lists/lists.rules'

// "Add to list" in another member's profile menu (docs/product.md, "Lists"): opening it reads the viewer's own lists,
// each saying whether the member is on it (GET /lists?scope=owned&member=…), shown as one checkbox per list. Ticking a
// box adds the member ('Added to list'), clearing it removes them ('Removed from list'); a refusal leaves the box as
// it was and says the server's words, else 'Failed to add member' / 'Failed to remove member'. One change at a time.

export type AddToListEvent =
  | { type: 'addToList.open' }
  | { type: 'addToList.close' }
  | { type: 'addToList.retry' }
  | { type: 'addToList.more' }
  | { type: 'addToList.toggle'; listId: string }

export interface AddToListInput {
  /** The member the profile shows. */
  userId: string
}

export interface AddToListContext {
  userId: string
  lists: ReadonlyArray<List>
  cursor: string | null
  /** The list being changed: its id and whether the member is being added. */
  pending: { listId: string; add: boolean } | null
}

export const addToListMachine = setup({
  types: {
    context: {} as AddToListContext,
    events: {} as AddToListEvent,
    input: {} as AddToListInput,
    tags: {} as 'busy',
  },
  actors: {
    loadLists: fromPromise<ListsPage, { userId: string; cursor: string | null }>(({ input, signal }) =>
      run(listCalls.getLists(input.cursor, 'owned', input.userId), signal),
    ),
    setMembership: fromPromise<List, { listId: string; userId: string; add: boolean }>(({ input, signal }) =>
      run(input.add ? listCalls.addMember(input.listId, input.userId) : listCalls.removeMember(input.listId, input.userId), signal),
    ),
  },
  actions: {
    showFirst: assign((_, page: ListsPage) => ({ lists: page.lists, cursor: page.nextCursor })),
    showMore: assign(({ context }, page: ListsPage) => {
      const held = new Set(context.lists.map((l) => l.id))
      return { lists: [...context.lists, ...page.lists.filter((l) => !held.has(l.id))], cursor: page.nextCursor }
    }),
    reset: assign({ lists: [], cursor: null, pending: null }),
    begin: assign(({ context }, listId: string) => ({
      pending: { listId, add: !(context.lists.find((l) => l.id === listId)?.hasMember ?? false) },
    })),
    /** The box shows what the server now holds, with the list's new count. */
    apply: assign(({ context }, list: List) => ({
      pending: null,
      lists: context.lists.map((l) => (l.id === list.id ? { ...list, hasMember: context.pending?.add ?? l.hasMember } : l)),
    })),
    notifySaved: ({ context, system }) => showToast(system, 'success', context.pending?.add ? MEMBER_ADDED : MEMBER_REMOVED),
    notifyRefused: ({ context, system }, error: unknown) =>
      showToast(system, 'error', serverMessageOr(error, context.pending?.add ? MEMBER_ADD_FAILED : MEMBER_REMOVE_FAILED)),
    settle: assign({ pending: null }),
  },
  guards: {
    isListed: ({ context }, listId: string) => context.lists.some((l) => l.id === listId),
    hasMore: ({ context }) => context.cursor !== null,
  },
}).createMachine({
  id: 'addToList',
  context: ({ input }) => ({ userId: input.userId, lists: [], cursor: null, pending: null }),
  initial: 'closed',
  states: {
    closed: {
      on: { 'addToList.open': { target: 'loading' } },
    },
    loading: {
      on: { 'addToList.close': { target: 'closed', actions: 'reset' } },
      invoke: {
        id: 'loadLists',
        src: 'loadLists',
        input: ({ context }) => ({ userId: context.userId, cursor: null }),
        onDone: { target: 'ready', actions: { type: 'showFirst', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    failed: {
      on: {
        'addToList.retry': { target: 'loading' },
        'addToList.close': { target: 'closed', actions: 'reset' },
      },
    },
    ready: {
      initial: 'idle',
      on: { 'addToList.close': { target: 'closed', actions: 'reset' } },
      states: {
        idle: {
          on: {
            'addToList.toggle': {
              guard: { type: 'isListed', params: ({ event }) => event.listId },
              target: 'saving',
              actions: { type: 'begin', params: ({ event }) => event.listId },
            },
            'addToList.more': { guard: 'hasMore', target: 'loadingMore' },
          },
        },
        loadingMore: {
          tags: ['busy'],
          invoke: {
            id: 'loadMore',
            src: 'loadLists',
            input: ({ context }) => ({ userId: context.userId, cursor: context.cursor }),
            onDone: { target: 'idle', actions: { type: 'showMore', params: ({ event }) => event.output } },
            onError: { target: 'idle' },
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'setMembership',
            src: 'setMembership',
            input: ({ context }) => ({ listId: context.pending?.listId ?? '', userId: context.userId, add: context.pending?.add ?? true }),
            onDone: { target: 'idle', actions: ['notifySaved', { type: 'apply', params: ({ event }) => event.output }] },
            onError: {
              target: 'idle',
              actions: [{ type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error }, 'settle'],
            },
          },
        },
      },
    },
  },
})

export type AddToListMachine = typeof addToListMachine
export type AddToListRef = ActorRefFrom<AddToListMachine>
