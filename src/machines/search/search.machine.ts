import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom } from 'xstate'
import { run } from '../../api/calls'
import { describeError } from '../../api/errors'
import { discoverCalls, type Trend, type UserSearchResult } from '../../api/discover.calls'
import { discoverMachine } from '../discover/discover.machine'
import type { Post } from '../../api/posts.calls'
import { followMachine, LIST_FOLLOW_MESSAGES, type FollowRef } from '../follow/follow.machine'
import { canFollow } from '../follow/follow.rules'
import { navigate } from '../lib/navigation'
import type { PostsRef } from '../posts/posts.machine'
import { appendEntries, removeEntry, toEntry, withoutMuted, type PostEntry } from '../posts/posts.model'
import { watchPosts, type PostsNews } from '../posts/watch-posts'
import {
  SEARCH_DEBOUNCE_MS,
  searchHref,
  tagQuery,
  toTerm,
  userQuery,
  type SearchTab,
} from './search.rules'

// The Search screen (docs/product.md, "Search and hashtags"). Trending Now and Who to Follow are the discovery
// actor's (src/machines/discover, invoked as 'discover' for the screen's life); the rest is the query:
// - query: the box and the results. Typing waits 500 ms after the last key (`typing`), then the term is searched on
//   the open tab and written to the address (?q=, replacing the entry). An empty box shows the two panels (`idle`).
//   A trending hashtag or a hashtag chosen on the Hashtags tab searches `#tag` on the Posts tab at once (a new
//   history entry); the address changing by itself (Back, a hashtag link) searches what it says.
//   Each search: loading -> loaded (idle with more pages, loadingMore, moreFailed with Try again, end) | empty |
//   failed (Try again). A users query under 2 characters (after '@') makes no call (`tooShort`).
// Users rows each get a Follow actor; posts go to the post cache and the list holds their ids.

export type SearchResults =
  | { tab: 'posts'; posts: Post[]; nextCursor: string | null }
  | { tab: 'users'; users: UserSearchResult[]; nextCursor: string | null }
  | { tab: 'hashtags'; hashtags: Trend[]; nextCursor: string | null }

export interface SearchCall {
  tab: SearchTab
  term: string
  cursor: string | null
}

export interface UserRow {
  user: UserSearchResult
  /** Null on the viewer's own row. */
  follow: FollowRef | null
}

export interface SearchInput {
  posts: PostsRef
  viewerId: string
  /** The address's q. */
  q: string
}

export interface SearchContext {
  posts: PostsRef
  viewerId: string
  /** What is in the box. */
  text: string
  /** What the results are for (the box after the debounce, trimmed); '' shows the panels. */
  term: string
  tab: SearchTab
  entries: PostEntry[]
  users: UserRow[]
  hashtags: Trend[]
  cursor: string | null
  error: string | null
  /** Counts searches, so the Follow actors of a new result list never clash with the old ones' ids. */
  generation: number
}

export type SearchEvent =
  | { type: 'search.typed'; text: string }
  | { type: 'search.tab'; tab: SearchTab }
  | { type: 'search.urlChanged'; q: string }
  | { type: 'search.trend'; hashtag: string }
  | { type: 'search.hashtag'; hashtag: string }
  | { type: 'search.retry' }
  | { type: 'search.more' }
  | PostsNews

export const SEARCH_FAILED = 'Could not search. Please try again.'
export const SEARCH_MORE_FAILED = 'Could not load more. Please try again.'

function resultsCall({ tab, term, cursor }: SearchCall, signal: AbortSignal): Promise<SearchResults> {
  if (tab === 'posts') {
    return run(discoverCalls.searchPosts({ q: term, cursor }), signal).then((page) => ({ tab, ...page }))
  }
  if (tab === 'users') {
    return run(discoverCalls.searchUsers({ q: userQuery(term) ?? term, cursor }), signal).then((page) => ({
      tab,
      users: page.users,
      nextCursor: page.nextCursor,
    }))
  }
  return run(discoverCalls.searchHashtags({ q: term, cursor }), signal).then((page) => ({ tab, ...page }))
}

const count = (results: SearchResults) =>
  results.tab === 'posts' ? results.posts.length : results.tab === 'users' ? results.users.length : results.hashtags.length

/** A hashtag chosen (a trend, or a result on the Hashtags tab) searches `#tag` on the Posts tab, as a new history entry. */
const searchHashtag = [
  { type: 'setQuery', params: ({ event }: { event: { hashtag: string } }) => tagQuery(event.hashtag) },
  { type: 'setTab', params: 'posts' },
  { type: 'writeUrl', params: { replace: false } },
] as const

export const searchMachine = setup({
  types: {
    context: {} as SearchContext,
    events: {} as SearchEvent,
    input: {} as SearchInput,
    tags: {} as 'busy',
  },
  actors: {
    search: fromPromise<SearchResults, SearchCall>(({ input, signal }) => resultsCall(input, signal)),
    debounce: fromPromise<void, { text: string }>(
      ({ signal }) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, SEARCH_DEBOUNCE_MS)
          signal.addEventListener('abort', () => clearTimeout(timer))
        }),
    ),
    discover: discoverMachine,
    follow: followMachine,
    watchPosts,
  },
  actions: {
    setText: assign((_, text: string) => ({ text })),
    applyText: assign(({ context }) => ({ term: toTerm(context.text) })),
    setQuery: assign((_, q: string) => ({ text: q, term: toTerm(q) })),
    setTab: assign((_, tab: SearchTab) => ({ tab })),
    writeUrl: ({ context }, { replace }: { replace: boolean }) => navigate(searchHref(context.term), { replace }),
    /** A new search: the old results go, with their Follow actors. */
    clearResults: enqueueActions(({ context, enqueue }) => {
      for (const row of context.users) if (row.follow) enqueue.stopChild(row.follow)
      enqueue.assign({ entries: [], users: [], hashtags: [], cursor: null, error: null, generation: context.generation + 1 })
    }),
    /** A page arrived: its posts to the shared post cache, its rows to the list. */
    receivePage: enqueueActions(({ context: { posts }, enqueue }, results: SearchResults) => {
      enqueue.sendTo(posts, { type: 'posts.received', posts: results.tab === 'posts' ? results.posts : [] })
      enqueue.assign(({ context, spawn }) => {
        const base = { cursor: results.nextCursor, error: null }
        if (results.tab === 'posts') return { ...base, entries: appendEntries(context.entries, results.posts.map(toEntry)) }
        if (results.tab === 'hashtags') {
          const known = new Set(context.hashtags.map((h) => h.hashtag))
          return { ...base, hashtags: [...context.hashtags, ...results.hashtags.filter((h) => !known.has(h.hashtag))] }
        }
        const known = new Set(context.users.map((row) => row.user.id))
        const rows = results.users
          .filter((user) => !known.has(user.id))
          .map(
            (user): UserRow => ({
              user,
              follow: canFollow(user.id, context.viewerId)
                ? spawn('follow', {
                    id: `follow-${context.generation}-${user.id}`,
                    input: { userId: user.id, following: user.isFollowing, followers: 0, messages: LIST_FOLLOW_MESSAGES },
                  })
                : null,
            }),
          )
        return { ...base, users: [...context.users, ...rows] }
      })
    }),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
    forget: assign(({ context }, id: string) => ({ entries: removeEntry(context.entries, id) })),
    forgetMuted: assign(({ context }, { authorId, ids }: { authorId: string; ids: ReadonlyArray<string> }) => ({
      entries: withoutMuted(context.entries, authorId, ids),
    })),
  },
  guards: {
    hasTerm: ({ context }) => context.term !== '',
    isBlank: (_, text: string) => toTerm(text) === '',
    isNewQuery: ({ context }, q: string) => toTerm(q) !== context.term,
    isOtherTab: ({ context }, tab: SearchTab) => tab !== context.tab,
    tooShortForUsers: ({ context }) => context.tab === 'users' && userQuery(context.term) === null,
    isEmpty: (_, results: SearchResults) => count(results) === 0,
    hasNextPage: (_, results: SearchResults) => results.nextCursor !== null,
  },
}).createMachine({
  id: 'search',
  context: ({ input }) => ({
    posts: input.posts,
    viewerId: input.viewerId,
    text: input.q,
    term: toTerm(input.q),
    tab: 'posts',
    entries: [],
    users: [],
    hashtags: [],
    cursor: null,
    error: null,
    generation: 0,
  }),
  // The panels an empty box shows, loaded once when the screen opens.
  invoke: { id: 'discover', src: 'discover', input: ({ context }) => ({ viewerId: context.viewerId }) },
  type: 'parallel',
  states: {
    query: {
      initial: 'start',
      on: {
        'search.typed': [
          {
            guard: { type: 'isBlank', params: ({ event }) => event.text },
            target: '.idle',
            actions: [
              { type: 'setText', params: ({ event }) => event.text },
              'applyText',
              { type: 'writeUrl', params: { replace: true } },
            ],
          },
          // Each key restarts the pause: `typing` is left and entered again (a transition into a region's child
          // exits the region's active children; `reenter` here would restart the panels too).
          { target: '.typing', actions: { type: 'setText', params: ({ event }) => event.text } },
        ],
        'search.urlChanged': {
          guard: { type: 'isNewQuery', params: ({ event }) => event.q },
          target: '.start',
          actions: { type: 'setQuery', params: ({ event }) => event.q },
        },
        'search.trend': { target: '.searching', actions: searchHashtag },
      },
      states: {
        start: {
          always: [{ guard: 'hasTerm', target: 'searching' }, { target: 'idle' }],
        },
        /** An empty box: Trending Now and Who to Follow. */
        idle: {},
        /** Waiting for the member to stop typing; a tab chosen now applies when the search starts. */
        typing: {
          invoke: {
            id: 'debounce',
            src: 'debounce',
            input: ({ context }) => ({ text: context.text }),
            onDone: { target: 'searching', actions: ['applyText', { type: 'writeUrl', params: { replace: true } }] },
          },
          on: {
            'search.tab': { actions: { type: 'setTab', params: ({ event }) => event.tab } },
          },
        },
        searching: {
          entry: 'clearResults',
          initial: 'start',
          on: {
            'search.tab': {
              guard: { type: 'isOtherTab', params: ({ event }) => event.tab },
              target: 'searching',
              reenter: true,
              actions: { type: 'setTab', params: ({ event }) => event.tab },
            },
            'search.hashtag': { target: 'searching', reenter: true, actions: searchHashtag },
          },
          states: {
            start: {
              always: [{ guard: 'tooShortForUsers', target: 'tooShort' }, { target: 'loading' }],
            },
            /** A users query under 2 characters: no call, nothing listed. */
            tooShort: {},
            loading: {
              tags: ['busy'],
              invoke: {
                id: 'search',
                src: 'search',
                input: ({ context }) => ({ tab: context.tab, term: context.term, cursor: null }),
                onDone: [
                  { guard: { type: 'isEmpty', params: ({ event }) => event.output }, target: 'empty' },
                  {
                    guard: { type: 'hasNextPage', params: ({ event }) => event.output },
                    target: 'loaded.idle',
                    actions: { type: 'receivePage', params: ({ event }) => event.output },
                  },
                  {
                    target: 'loaded.end',
                    actions: { type: 'receivePage', params: ({ event }) => event.output },
                  },
                ],
                onError: {
                  target: 'failed',
                  actions: { type: 'setError', params: ({ event }) => describeError(event.error, SEARCH_FAILED) },
                },
              },
            },
            /** Nothing matches: 'No posts found for "{query}"' and the like. */
            empty: {},
            failed: {
              on: { 'search.retry': { target: 'loading', actions: 'clearError' } },
            },
            loaded: {
              invoke: { id: 'watchPosts', src: 'watchPosts', input: ({ context }) => ({ posts: context.posts }) },
              on: {
                'post.deleted': { actions: { type: 'forget', params: ({ event }) => event.id } },
                'author.muted': { actions: { type: 'forgetMuted', params: ({ event }) => event } },
              },
              initial: 'idle',
              states: {
                /** More pages: the list asks for the next near its end (posts) or with Load more. */
                idle: {
                  on: { 'search.more': { target: 'loadingMore' } },
                },
                loadingMore: {
                  tags: ['busy'],
                  invoke: {
                    id: 'searchMore',
                    src: 'search',
                    input: ({ context }) => ({ tab: context.tab, term: context.term, cursor: context.cursor }),
                    onDone: [
                      {
                        guard: { type: 'hasNextPage', params: ({ event }) => event.output },
                        target: 'idle',
                        actions: { type: 'receivePage', params: ({ event }) => event.output },
                      },
                      {
                        target: 'end',
                        actions: { type: 'receivePage', params: ({ event }) => event.output },
                      },
                    ],
                    onError: {
                      target: 'moreFailed',
                      actions: { type: 'setError', params: ({ event }) => describeError(event.error, SEARCH_MORE_FAILED) },
                    },
                  },
                },
                /** What is shown stays; Try again asks for the same page. */
                moreFailed: {
                  on: { 'search.more': { target: 'loadingMore', actions: 'clearError' } },
                },
                end: {},
              },
            },
          },
        },
      },
    },
  },
})

export type SearchMachine = typeof searchMachine
export type SearchRef = ActorRefFrom<SearchMachine>
