import { assign, fromPromise, sendTo, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import type { UserSearchResponse, UserSearchResult } from '../../api/discover.calls'
import { listCalls, type List, type ListDetail, type ListMember, type ListsPage, type Subscription } from '../../api/lists.calls'
import { firstPageState, nextPageState } from '../lib/page-states'
import { appendPage, MORE_FAILED, prependRow, replaceRow } from '../lib/paging'
import { changeNotices } from '../lib/saved-change'
import { searchingState, searchUsers, typedQuery, waitForTyping } from '../lib/user-search'
import type { GroupDraft } from '../lib/named-group.rules'
import { namedGroupFormMachine, type NamedGroupFormReport } from '../named-group-form/named-group-form.machine'
import { namedGroupFormState } from '../named-group-form/named-group-form.state'
import {
  isOwnList,
  isSearchable,
  LIST_CREATE_FAILED,
  LIST_CREATED,
  LIST_DELETE_FAILED,
  LIST_DELETED,
  LIST_UPDATE_FAILED,
  LIST_UPDATED,
  MEMBER_ADD_FAILED,
  MEMBER_ADDED,
  MEMBER_REMOVE_FAILED,
  MEMBER_REMOVED,
  MEMBERS_LOAD_FAILED,
  SUBSCRIBE_FAILED,
  SUBSCRIBED,
  UNSUBSCRIBE_FAILED,
  UNSUBSCRIBED,
} from './lists.rules'

// The Manage Lists dialog (spec: "Manage Lists: New List, Close, form, list of lists"; docs/product.md, "Lists"). Runs
// while the dialog is open, so each opening reads afresh: the member's lists and the lists they subscribe to (spinner;
// a failure offers Try again; more pages on demand). Then:
// - New List and Edit open the form, a child actor shared with the Bookmarks dialog (named-group-form: name required,
//   at most 50; description at most 200; trimmed; private or not): 'List created successfully' / 'List updated
//   successfully'; a refusal keeps the form and says why under it and in a toast (the server's words, else 'Failed to
//   create list' / 'Failed to update list').
// - Delete asks 'Are you sure you want to delete this list?' (Cancel keeps it): 'List deleted successfully', else the
//   server's words or 'Failed to delete list'.
// - Members opens one of the member's own lists: its members with Remove, and a member search (GET /users/search,
//   from 2 characters, 500 ms after the last keystroke) whose results can be added. Counts follow the server's answer.
//   Members come a page at a time (the first on opening, then Load more while the server gives a next cursor; a
//   failed first page offers Try again, a failed later one keeps the rows). An added member shows first at once, a
//   removed one goes, without reading the list again.
// - A subscribed list (someone else's) offers Unsubscribe, then Subscribe again.
// One change at a time (tag `busy`).

export type ListChange =
  | { kind: 'create'; fields: GroupDraft }
  | { kind: 'update'; id: string; fields: GroupDraft }
  | { kind: 'delete'; id: string }
  | { kind: 'subscribe'; id: string }
  | { kind: 'unsubscribe'; id: string }
  | { kind: 'add'; id: string; member: ListMember }
  | { kind: 'remove'; id: string; userId: string }

export type ListsEvent =
  | { type: 'lists.retry' }
  | { type: 'lists.more' }
  | { type: 'list.new' }
  | { type: 'list.edit'; id: string }
  | { type: 'list.delete'; id: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'list.subscribe'; id: string }
  | { type: 'list.unsubscribe'; id: string }
  /** From the form child: a valid draft to save, or Cancel. */
  | NamedGroupFormReport
  | { type: 'list.members'; id: string }
  | { type: 'members.back' }
  | { type: 'members.retry' }
  | { type: 'members.more' }
  | { type: 'members.query'; value: string }
  | { type: 'members.add'; userId: string }
  | { type: 'members.remove'; userId: string }

export interface ListsInput {
  /** The signed-in member: their own lists are managed, others' subscribed to. */
  viewerId: string
}

export interface ListsContext {
  viewerId: string
  lists: ReadonlyArray<List>
  cursor: string | null
  /** The list the form edits; null: a new one. */
  editingId: string | null
  /** The list the delete confirmation asks about. */
  deletingId: string | null
  /** The list whose members are shown, and its members (most recently added first). */
  openId: string | null
  members: ReadonlyArray<ListMember>
  /** The next page of members, or null when they are all shown. */
  membersCursor: string | null
  /** Why the members' first page, or the last Load more, failed. */
  membersError: string | null
  query: string
  /** Text typed while the members loaded or a change saved: searched for once the members show. */
  queryPending: boolean
  results: ReadonlyArray<UserSearchResult>
  change: ListChange | null
}

type ChangeOutput = List | Subscription | null

function save(change: ListChange, signal: AbortSignal): Promise<ChangeOutput> {
  switch (change.kind) {
    case 'create':
      return run(listCalls.createList(change.fields), signal)
    case 'update':
      return run(listCalls.updateList(change.id, change.fields), signal)
    case 'delete':
      return run(listCalls.deleteList(change.id), signal).then(() => null)
    case 'subscribe':
      return run(listCalls.subscribe(change.id), signal)
    case 'unsubscribe':
      return run(listCalls.unsubscribe(change.id), signal)
    case 'add':
      return run(listCalls.addMember(change.id, change.member.id), signal)
    case 'remove':
      return run(listCalls.removeMember(change.id, change.userId), signal)
  }
}

export const SAVED: Record<ListChange['kind'], string> = {
  create: LIST_CREATED,
  update: LIST_UPDATED,
  delete: LIST_DELETED,
  subscribe: SUBSCRIBED,
  unsubscribe: UNSUBSCRIBED,
  add: MEMBER_ADDED,
  remove: MEMBER_REMOVED,
}

export const REFUSED: Record<ListChange['kind'], string> = {
  create: LIST_CREATE_FAILED,
  update: LIST_UPDATE_FAILED,
  delete: LIST_DELETE_FAILED,
  subscribe: SUBSCRIBE_FAILED,
  unsubscribe: UNSUBSCRIBE_FAILED,
  add: MEMBER_ADD_FAILED,
  remove: MEMBER_REMOVE_FAILED,
}

const notices = changeNotices<ListChange>({ saved: SAVED, refused: REFUSED })
const isList = (output: ChangeOutput): output is List => output !== null && 'id' in output

const closedMembers = { openId: null, members: [], membersCursor: null, membersError: null, query: '', queryPending: false, results: [] }

export const listsMachine = setup({
  types: {
    context: {} as ListsContext,
    events: {} as ListsEvent,
    input: {} as ListsInput,
    tags: {} as 'busy' | 'loading' | 'searching',
  },
  actors: {
    loadLists: fromPromise<ListsPage, { cursor: string | null }>(({ input, signal }) => run(listCalls.getLists(input.cursor), signal)),
    /** One page of the open list's members (and the list, for its count). */
    loadMembers: fromPromise<ListDetail, { id: string; cursor: string | null }>(({ input, signal }) =>
      run(listCalls.getList(input.id, input.cursor), signal),
    ),
    /** The debounce: the search starts once the member has stopped typing for SEARCH_DEBOUNCE_MS. */
    wait: waitForTyping,
    searchUsers,
    change: fromPromise<ChangeOutput, ListChange>(({ input, signal }) => save(input, signal)),
    form: namedGroupFormMachine,
  },
  actions: {
    showFirst: assign((_, page: ListsPage) => ({ lists: page.lists, cursor: page.nextCursor })),
    showMore: assign(({ context }, page: ListsPage) => ({ lists: appendPage(context.lists, page.lists), cursor: page.nextCursor })),
    startEdit: assign((_, id: string | null) => ({ editingId: id })),
    askDelete: assign((_, id: string) => ({ deletingId: id })),
    forgetDelete: assign({ deletingId: null }),
    openMembers: assign((_, id: string) => ({ ...closedMembers, openId: id })),
    showMembers: assign(({ context }, detail: ListDetail) => ({
      members: detail.members,
      membersCursor: detail.nextCursor,
      membersError: null,
      lists: replaceRow(context.lists, detail.list),
    })),
    showMoreMembers: assign(({ context }, detail: ListDetail) => ({
      members: appendPage(context.members, detail.members),
      membersCursor: detail.nextCursor,
      membersError: null,
      lists: replaceRow(context.lists, detail.list),
    })),
    setMembersError: assign((_, message: string) => ({ membersError: message })),
    clearMembersError: assign({ membersError: null }),
    closeMembers: assign(closedMembers),
    setQuery: assign((_, value: string) => ({ query: value })),
    holdQuery: assign((_, value: string) => ({ query: value, queryPending: true, results: [] })),
    releaseQuery: assign({ queryPending: false }),
    clearResults: assign({ results: [] }),
    showResults: assign((_, page: UserSearchResponse) => ({ results: page.users })),
    begin: assign((_, change: ListChange) => ({ change })),
    /** What the server agreed to, on screen. */
    apply: assign(({ context }, output: ChangeOutput) => {
      const change = context.change
      if (!change) return {}
      switch (change.kind) {
        case 'create':
          return isList(output)
            ? { change: null, lists: prependRow(context.lists, output), editingId: null }
            : { change: null }
        case 'update':
          return isList(output) ? { change: null, lists: replaceRow(context.lists, output), editingId: null } : { change: null }
        case 'delete':
          return { change: null, deletingId: null, lists: context.lists.filter((l) => l.id !== change.id) }
        case 'subscribe':
        case 'unsubscribe': {
          const subscription = output as Subscription | null
          return {
            change: null,
            lists: context.lists.map((l) =>
              l.id === change.id && subscription
                ? { ...l, subscribed: subscription.subscribed, subscriberCount: subscription.subscriberCount }
                : l,
            ),
          }
        }
        case 'add':
          return {
            change: null,
            lists: isList(output) ? replaceRow(context.lists, output) : context.lists,
            members: prependRow(context.members, change.member),
          }
        case 'remove':
          return {
            change: null,
            lists: isList(output) ? replaceRow(context.lists, output) : context.lists,
            members: context.members.filter((m) => m.id !== change.userId),
          }
      }
    }),
    notifySaved: notices.notifySaved,
    notifyRefused: notices.notifyRefused,
    /** A refused form keeps what was typed and says why under it (and in the toast). */
    tellFormRefused: sendTo('form', ({ context }, error: unknown) => ({
      type: 'form.refused' as const,
      message: notices.refusal(context.editingId ? 'update' : 'create', error),
    })),
    settle: assign({ change: null, deletingId: null }),
  },
  guards: {
    hasMore: ({ context }) => context.cursor !== null,
    isOwn: ({ context }, id: string) => context.lists.some((l) => l.id === id && isOwnList(l, context.viewerId)),
    isSubscribed: ({ context }, id: string) => context.lists.some((l) => l.id === id && !isOwnList(l, context.viewerId) && l.subscribed),
    isUnsubscribed: ({ context }, id: string) => context.lists.some((l) => l.id === id && !isOwnList(l, context.viewerId) && !l.subscribed),
    searchable: (_, value: string) => isSearchable(value),
    queryPending: ({ context }) => context.queryPending && isSearchable(context.query),
    /** A search result not on the open list yet. */
    canAdd: ({ context }, userId: string) =>
      context.results.some((u) => u.id === userId) && !context.members.some((m) => m.id === userId),
    isMember: ({ context }, userId: string) => context.members.some((m) => m.id === userId),
    hasMoreMembers: ({ context }) => context.membersCursor !== null,
  },
}).createMachine({
  id: 'lists',
  context: ({ input }) => ({
    viewerId: input.viewerId,
    lists: [],
    cursor: null,
    editingId: null,
    deletingId: null,
    ...closedMembers,
    change: null,
  }),
  initial: 'loading',
  states: {
    loading: firstPageState({ id: 'loadLists', src: 'loadLists', show: 'showFirst' }),
    /** 'Could not load your lists.' with Try again. */
    failed: {
      on: { 'lists.retry': { target: 'loading' } },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'lists.more': { guard: 'hasMore', target: 'loadingMore' },
            'list.new': { target: 'form', actions: { type: 'startEdit', params: null } },
            'list.edit': {
              guard: { type: 'isOwn', params: ({ event }) => event.id },
              target: 'form',
              actions: { type: 'startEdit', params: ({ event }) => event.id },
            },
            'list.delete': {
              guard: { type: 'isOwn', params: ({ event }) => event.id },
              target: 'confirmingDelete',
              actions: { type: 'askDelete', params: ({ event }) => event.id },
            },
            'list.subscribe': {
              guard: { type: 'isUnsubscribed', params: ({ event }) => event.id },
              target: 'saving',
              actions: { type: 'begin', params: ({ event }) => ({ kind: 'subscribe' as const, id: event.id }) },
            },
            'list.unsubscribe': {
              guard: { type: 'isSubscribed', params: ({ event }) => event.id },
              target: 'saving',
              actions: { type: 'begin', params: ({ event }) => ({ kind: 'unsubscribe' as const, id: event.id }) },
            },
            'list.members': {
              guard: { type: 'isOwn', params: ({ event }) => event.id },
              target: 'members',
              actions: { type: 'openMembers', params: ({ event }) => event.id },
            },
          },
        },
        loadingMore: nextPageState({
          src: 'loadLists',
          append: 'showMore',
          cursor: (context: ListsContext) => context.cursor,
          tags: ['busy'],
        }),
        /** The list form (a child actor): New List or Edit, then saving what it sends. */
        form: namedGroupFormState<ListsContext, ListChange, ChangeOutput>({ machineId: 'lists', rows: (context) => context.lists }),
        /** 'Are you sure you want to delete this list?' */
        confirmingDelete: {
          on: {
            'delete.confirm': {
              target: 'saving',
              actions: { type: 'begin', params: ({ context }) => ({ kind: 'delete' as const, id: context.deletingId ?? '' }) },
            },
            'delete.cancel': { target: 'idle', actions: 'forgetDelete' },
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'change',
            src: 'change',
            input: ({ context }) => context.change as ListChange,
            onDone: { target: 'idle', actions: ['notifySaved', { type: 'apply', params: ({ event }) => event.output }] },
            onError: {
              target: 'idle',
              actions: [{ type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error }, 'settle'],
            },
          },
        },
        /** One of the member's lists, its members and the member search. */
        members: {
          initial: 'loading',
          on: {
            'members.back': { target: '#lists.ready.idle', actions: 'closeMembers' },
            // Typing before the members show (or while a change saves) keeps the text; browsing searches it.
            'members.query': { actions: { type: 'holdQuery', params: ({ event }) => event.value } },
          },
          states: {
            loading: {
              tags: ['busy'],
              entry: 'clearMembersError',
              invoke: {
                id: 'loadMembers',
                src: 'loadMembers',
                input: ({ context }) => ({ id: context.openId ?? '', cursor: null }),
                onDone: [
                  { guard: 'queryPending', target: 'browsing.debouncing', actions: { type: 'showMembers', params: ({ event }) => event.output } },
                  { target: 'browsing', actions: { type: 'showMembers', params: ({ event }) => event.output } },
                ],
                onError: { target: 'failed', actions: { type: 'setMembersError', params: MEMBERS_LOAD_FAILED } },
              },
            },
            /** 'Could not load the members of this list.' with Try again (and All lists). */
            failed: {
              on: { 'members.retry': { target: 'loading' } },
            },
            /** The next page; the rows shown stay. A failure says so and Load more tries the same page again. */
            loadingMore: {
              tags: ['busy'],
              invoke: {
                id: 'loadMoreMembers',
                src: 'loadMembers',
                input: ({ context }) => ({ id: context.openId ?? '', cursor: context.membersCursor }),
                onDone: [
                  { guard: 'queryPending', target: 'browsing.debouncing', actions: { type: 'showMoreMembers', params: ({ event }) => event.output } },
                  { target: 'browsing', actions: { type: 'showMoreMembers', params: ({ event }) => event.output } },
                ],
                onError: { target: 'browsing', actions: { type: 'setMembersError', params: MORE_FAILED } },
              },
            },
            browsing: {
              initial: 'idle',
              on: {
                'members.query': typedQuery,
                'members.add': {
                  guard: { type: 'canAdd', params: ({ event }) => event.userId },
                  target: 'changing',
                  actions: {
                    type: 'begin',
                    params: ({ context, event }) => {
                      const found = context.results.find((u) => u.id === event.userId)
                      const member: ListMember = {
                        id: event.userId,
                        username: found?.username ?? '',
                        displayName: found?.displayName ?? '',
                        avatar: found?.avatar ?? null,
                        verified: found?.verified ?? false,
                      }
                      return { kind: 'add' as const, id: context.openId ?? '', member }
                    },
                  },
                },
                'members.more': { guard: 'hasMoreMembers', target: 'loadingMore', actions: 'clearMembersError' },
                'members.remove': {
                  guard: { type: 'isMember', params: ({ event }) => event.userId },
                  target: 'changing',
                  actions: {
                    type: 'begin',
                    params: ({ context, event }) => ({ kind: 'remove' as const, id: context.openId ?? '', userId: event.userId }),
                  },
                },
              },
              states: {
                /** Fewer than 2 characters (or the results of the last search): nothing is asked. */
                idle: {},
                debouncing: {
                  tags: ['searching'],
                  entry: 'releaseQuery',
                  invoke: { id: 'wait', src: 'wait', onDone: 'searching' },
                },
                searching: searchingState({ done: 'idle', failed: 'searchFailed' }),
                /** 'Failed to search users'; typing again searches again. */
                searchFailed: {},
              },
            },
            changing: {
              tags: ['busy'],
              invoke: {
                id: 'changeMember',
                src: 'change',
                input: ({ context }) => context.change as ListChange,
                onDone: [
                  { guard: 'queryPending', target: 'browsing.debouncing', actions: ['notifySaved', { type: 'apply', params: ({ event }) => event.output }] },
                  { target: 'browsing', actions: ['notifySaved', { type: 'apply', params: ({ event }) => event.output }] },
                ],
                onError: [
                  {
                    guard: 'queryPending',
                    target: 'browsing.debouncing',
                    actions: [{ type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error }, 'settle'],
                  },
                  {
                    target: 'browsing',
                    actions: [{ type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error }, 'settle'],
                  },
                ],
              },
            },
          },
        },
      },
    },
  },
})

export type ListsMachine = typeof listsMachine
export type ListsRef = ActorRefFrom<ListsMachine>
