import type { Effect } from 'effect'
import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr, type ApiError } from '../../api/errors'
import { firstPageState, nextPageState } from '../lib/page-states'
import { appendPageBy } from '../lib/paging'
import { showToast } from '../toasts/notify'
import { checkFilter, type FilterList } from './filter-lists.rules'

// The members, keywords and domains a member filters out, blocked (Settings -> Blocked Accounts) or muted (the Mute
// Management dialog): one actor for both, parameterised by the feature's calls and words. Started, it reads the first
// page (spinner, or Try again), then lists the members (remove; Load more while the server gives a next cursor) and
// the keyword and domain chips (remove), with an Add form for each, checked first (filter-lists.rules.ts). One change
// at a time: while one is saving, the buttons wait. A saved change toasts; a refused one either says why under its
// form (an Add; removals are silent) or toasts (the feature's `refusals`). A refused Add keeps what was typed.

export type { FilterList }

/** What the actor shows of one page: the members, and every keyword and domain (as the server stored them). */
export interface FilterPage<U> {
  users: ReadonlyArray<U>
  keywords: ReadonlyArray<string>
  domains: ReadonlyArray<string>
  nextCursor: string | null
}

/** One change the member asked for, as sent to the server. */
export type FilterChange =
  | { kind: 'removeUser'; userId: string }
  | { kind: 'add'; list: FilterList; value: string }
  | { kind: 'remove'; list: FilterList; value: string }

export type FilterListsEvent =
  | { type: 'lists.retry' }
  | { type: 'users.more' }
  | { type: 'user.remove'; userId: string }
  | { type: 'filter.input'; list: FilterList; value: string }
  | { type: 'filter.add'; list: FilterList }
  | { type: 'filter.remove'; list: FilterList; value: string }

export interface FilterListsContext<U> {
  users: ReadonlyArray<U>
  lists: Readonly<Record<FilterList, ReadonlyArray<string>>>
  nextCursor: string | null
  /** What is typed in each Add form, and the message under it. */
  drafts: Readonly<Record<FilterList, string>>
  errors: Readonly<Record<FilterList, string | null>>
  /** The change being saved. */
  change: FilterChange | null
}

export type FilterListsTag = 'loading' | 'failed' | 'ready' | 'busy' | 'loadingMore'

/** What differs between blocks and mutes. */
export interface FilterListsConfig<U> {
  id: string
  load: (cursor: string | null) => Effect.Effect<FilterPage<U>, ApiError>
  /** The listed member's own id (what removing them sends). */
  memberId: (user: U) => string
  removeUser: (userId: string) => Effect.Effect<void, ApiError>
  /** Answers the value as the server stored it. */
  add: (list: FilterList, value: string) => Effect.Effect<string, ApiError>
  remove: (list: FilterList, value: string) => Effect.Effect<void, ApiError>
  /** The toast of a saved change. */
  saved: { removeUser: string; add: Record<FilterList, string>; remove: Record<FilterList, string> }
  /**
   * How a refusal shows: under the Add form (the server's words, else `addFailed`; removals silent), or as an error
   * toast (the server's words, else `addFailed` / `removeFailed`).
   */
  refusals: { shown: 'form'; addFailed: Record<FilterList, string> } | { shown: 'toast'; addFailed: string; removeFailed: string }
}

const both = <T>(value: T): Record<FilterList, T> => ({ keywords: value, domains: value })

/** Keeps a list alphabetical (as the server lists it) with one entry per value in any case. */
const addSorted = (list: ReadonlyArray<string>, value: string) =>
  [...list.filter((v) => v.toLowerCase() !== value.toLowerCase()), value].sort((a, b) => a.localeCompare(b))

/** Answers what the server stored for an Add, null for a removal. */
function save<U>(config: FilterListsConfig<U>, change: FilterChange, signal: AbortSignal): Promise<string | null> {
  switch (change.kind) {
    case 'removeUser':
      return run(config.removeUser(change.userId), signal).then(() => null)
    case 'add':
      return run(config.add(change.list, change.value), signal)
    case 'remove':
      return run(config.remove(change.list, change.value), signal).then(() => null)
  }
}

export function filterListsMachine<U>(config: FilterListsConfig<U>) {
  const { refusals } = config
  return setup({
    types: {
      context: {} as FilterListsContext<U>,
      events: {} as FilterListsEvent,
      tags: {} as FilterListsTag,
    },
    actors: {
      load: fromPromise<FilterPage<U>, { cursor: string | null }>(({ input, signal }) => run(config.load(input.cursor), signal)),
      change: fromPromise<string | null, FilterChange>(({ input, signal }) => save(config, input, signal)),
    },
    actions: {
      showPage: assign((_, page: FilterPage<U>) => ({
        users: page.users,
        lists: { keywords: page.keywords, domains: page.domains },
        nextCursor: page.nextCursor,
      })),
      appendUsers: assign(({ context }, page: FilterPage<U>) => ({
        users: appendPageBy(context.users, page.users, config.memberId),
        nextCursor: page.nextCursor,
      })),
      type: assign(({ context }, { list, value }: { list: FilterList; value: string }) => ({
        drafts: { ...context.drafts, [list]: value },
        errors: { ...context.errors, [list]: null },
      })),
      begin: assign((_, change: FilterChange) => ({ change })),
      reject: assign(({ context }, list: FilterList) => {
        const checked = checkFilter[list](context.drafts[list])
        return { errors: { ...context.errors, [list]: checked.ok ? null : checked.message } }
      }),
      /** What the server agreed to, on screen: the row or chip goes, or the stored chip comes (and its form empties). */
      apply: assign(({ context }, stored: string | null) => {
        const change = context.change
        if (!change) return {}
        if (change.kind === 'removeUser') {
          return { change: null, users: context.users.filter((u) => config.memberId(u) !== change.userId) }
        }
        const { list, value } = change
        if (change.kind === 'remove') {
          return { change: null, lists: { ...context.lists, [list]: context.lists[list].filter((v) => v !== value) } }
        }
        return {
          change: null,
          lists: { ...context.lists, [list]: addSorted(context.lists[list], stored ?? value) },
          drafts: { ...context.drafts, [list]: '' },
          errors: { ...context.errors, [list]: null },
        }
      }),
      notifyChanged: ({ context, system }) => {
        const change = context.change
        if (!change) return
        const said = change.kind === 'removeUser' ? config.saved.removeUser : config.saved[change.kind][change.list]
        showToast(system, 'success', said)
      },
      /** The server's words, else the feature's default, as an error toast. */
      notifyRefused: ({ context, system }, error: unknown) => {
        const change = context.change
        if (!change || refusals.shown !== 'toast') return
        showToast(system, 'error', serverMessageOr(error, change.kind === 'add' ? refusals.addFailed : refusals.removeFailed))
      },
      /** The change is over; a refused Add says why under its form (the server's words, else the feature's default). */
      refuse: assign(({ context }, error: unknown) => {
        const change = context.change
        if (change?.kind !== 'add' || refusals.shown !== 'form') return { change: null }
        return { change: null, errors: { ...context.errors, [change.list]: serverMessageOr(error, refusals.addFailed[change.list]) } }
      }),
    },
    guards: {
      hasMore: ({ context }) => context.nextCursor !== null,
      isListedUser: ({ context }, userId: string) => context.users.some((u) => config.memberId(u) === userId),
      isListed: ({ context }, { list, value }: { list: FilterList; value: string }) => context.lists[list].includes(value),
      draftIsValid: ({ context }, list: FilterList) => checkFilter[list](context.drafts[list]).ok,
      hasDraft: ({ context }, list: FilterList) => context.drafts[list].trim() !== '',
    },
  }).createMachine({
    id: config.id,
    context: {
      users: [],
      lists: both([]),
      nextCursor: null,
      drafts: both(''),
      errors: both(null),
      change: null,
    },
    initial: 'loading',
    states: {
      loading: firstPageState({ id: 'load', src: 'load', show: 'showPage' }),
      failed: {
        tags: ['failed'],
        on: { 'lists.retry': 'loading' },
      },
      ready: {
        tags: ['ready'],
        initial: 'idle',
        on: {
          'filter.input': { actions: { type: 'type', params: ({ event }) => event } },
        },
        states: {
          idle: {
            on: {
              'users.more': { guard: 'hasMore', target: 'loadingMore' },
              'user.remove': {
                guard: { type: 'isListedUser', params: ({ event }) => event.userId },
                target: 'saving',
                actions: { type: 'begin', params: ({ event }) => ({ kind: 'removeUser' as const, userId: event.userId }) },
              },
              'filter.add': [
                {
                  guard: { type: 'draftIsValid', params: ({ event }) => event.list },
                  target: 'saving',
                  actions: {
                    type: 'begin',
                    // The value as it will be stored: trimmed (a domain also lowercased).
                    params: ({ context, event }) => {
                      const checked = checkFilter[event.list](context.drafts[event.list])
                      return { kind: 'add' as const, list: event.list, value: checked.ok ? checked.value : '' }
                    },
                  },
                },
                {
                  guard: { type: 'hasDraft', params: ({ event }) => event.list },
                  actions: { type: 'reject', params: ({ event }) => event.list },
                },
              ],
              'filter.remove': {
                guard: { type: 'isListed', params: ({ event }) => event },
                target: 'saving',
                actions: {
                  type: 'begin',
                  params: ({ event }) => ({ kind: 'remove' as const, list: event.list, value: event.value }),
                },
              },
            },
          },
          saving: {
            tags: ['busy'],
            invoke: {
              id: 'change',
              src: 'change',
              input: ({ context }) => context.change as FilterChange,
              onDone: {
                target: 'idle',
                actions: ['notifyChanged', { type: 'apply', params: ({ event }) => event.output }],
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
            src: 'load',
            append: 'appendUsers',
            cursor: (context: FilterListsContext<U>) => context.nextCursor,
            tags: ['busy', 'loadingMore'],
          }),
        },
      },
    },
  })
}

export type FilterListsMachine<U> = ReturnType<typeof filterListsMachine<U>>
export type FilterListsRef<U> = ActorRefFrom<FilterListsMachine<U>>
