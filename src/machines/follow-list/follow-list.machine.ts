import { assign, fromPromise, setup, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { describeError, isApiError } from '../../api/errors'
import { userCalls, type FollowEntry, type FollowPage } from '../../api/users.calls'
import { followMachine, LIST_FOLLOW_MESSAGES, type FollowRef } from '../follow/follow.machine'
import { canFollow } from '../follow/follow.rules'
import { MORE_FAILED } from '../lib/paging'
import { hasMorePages } from './follow-list.rules'

// A member's followers or following list (docs/product.md, "Follows"): the first page, then Load more while the
// server has more.
// Each row but the viewer's own gets its own Follow/Unfollow actor (follow.machine.ts), so a click on one row never
// waits for another. A member that does not exist shows 'User not found'.

export type FollowListKind = 'followers' | 'following'

export interface FollowRow {
  entry: FollowEntry
  /** Null on the viewer's own row: nobody follows themselves. */
  follow: FollowRef | null
}

export interface FollowListInput {
  username: string
  kind: FollowListKind
  viewerId: string
}

export interface FollowListContext extends FollowListInput {
  rows: FollowRow[]
  nextCursor: string | null
  lastPageSize: number
  error: string | null
}

export type FollowListEvent = { type: 'follows.more' } | { type: 'follows.retry' }

export interface LoadPageInput {
  username: string
  kind: FollowListKind
  cursor: string | null
}

export const FOLLOW_LIST_LOAD_FAILED = 'Could not load this list. Please try again.'
export const FOLLOW_LIST_MORE_FAILED = MORE_FAILED

export const followListMachine = setup({
  types: {
    context: {} as FollowListContext,
    events: {} as FollowListEvent,
    input: {} as FollowListInput,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    loadPage: fromPromise<FollowPage, LoadPageInput>(({ input, signal }) => {
      const query = { username: input.username, cursor: input.cursor }
      return run(input.kind === 'followers' ? userCalls.getFollowers(query) : userCalls.getFollowing(query), signal)
    }),
    follow: followMachine,
  },
  actions: {
    addPage: assign(({ context, spawn }, page: FollowPage) => {
      // Keyset pages never overlap, but a row must never get two actors (their ids would clash): skip repeats.
      const known = new Set(context.rows.map((row) => row.entry.id))
      const fresh = page.entries.filter((entry) => !known.has(entry.id))
      const rows = fresh.map(
        (entry): FollowRow => ({
          entry,
          follow: canFollow(entry.id, context.viewerId)
            ? spawn('follow', {
                id: `follow-${entry.id}`,
                // Rows show no followers count (the entry has none); the button only needs the state.
                input: {
                  userId: entry.id,
                  following: entry.isFollowing,
                  requested: entry.requested,
                  privateAccount: entry.privateAccount,
                  followers: 0,
                  messages: LIST_FOLLOW_MESSAGES,
                },
              })
            : null,
        }),
      )
      return { rows: [...context.rows, ...rows], nextCursor: page.nextCursor, lastPageSize: page.entries.length, error: null }
    }),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
  },
  guards: {
    isNotFound: (_, error: unknown) => isApiError(error) && error._tag === 'NotFound',
    hasMore: ({ context }) => hasMorePages(context),
  },
}).createMachine({
  id: 'followList',
  context: ({ input }) => ({ ...input, rows: [], nextCursor: null, lastPageSize: 0, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      entry: 'clearError',
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => ({ username: context.username, kind: context.kind, cursor: null }),
        onDone: { target: 'loaded', actions: { type: 'addPage', params: ({ event }) => event.output } },
        onError: [
          {
            guard: { type: 'isNotFound', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            target: 'notFound',
          },
          {
            target: 'failed',
            actions: { type: 'setError', params: ({ event }) => describeError(event.error, FOLLOW_LIST_LOAD_FAILED) },
          },
        ],
      },
    },
    /** The first page could not be read; nothing to show but the reason and Retry. */
    failed: {
      on: { 'follows.retry': { target: 'loading' } },
    },
    notFound: {},
    loaded: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'follows.more': { guard: 'hasMore', target: 'loadingMore' } },
        },
        loadingMore: {
          tags: ['busy'],
          entry: 'clearError',
          invoke: {
            id: 'loadPage',
            src: 'loadPage',
            input: ({ context }) => ({ username: context.username, kind: context.kind, cursor: context.nextCursor }),
            onDone: { target: 'idle', actions: { type: 'addPage', params: ({ event }) => event.output } },
            onError: {
              target: 'moreFailed',
              actions: { type: 'setError', params: ({ event }) => describeError(event.error, FOLLOW_LIST_MORE_FAILED) },
            },
          },
        },
        /** The rows stay; Load more tries the same page again. */
        moreFailed: {
          on: { 'follows.more': { target: 'loadingMore' } },
        },
      },
    },
  },
})

export type FollowListMachine = typeof followListMachine

