import { Effect } from 'effect'
import { assign, sendTo, setup, type ActorRefFrom } from 'xstate'
import { run } from '../../api/calls'
import { describeError } from '../../api/errors'
import { listCalls } from '../../api/lists.calls'
import { postCalls, type FeedPost, type Post, type PostPage } from '../../api/posts.calls'
import { adoptingCall } from '../lib/boot-prefetch'
import type { PostsRef } from '../posts/posts.machine'
import {
  appendEntries,
  prependEntries,
  removeEntry,
  toEntry,
  withoutMuted,
  withoutRepostsBy,
  type PostEntry,
} from '../posts/posts.model'
import { watchPosts, type PostsNews } from '../posts/watch-posts'

// The home feed (docs/product.md, "Home feed"): the first page loads when Home opens (loading -> ready or error with a
// retry), more pages load as the member nears the end (ready.loadingMore -> loaded, or end when there is no next
// cursor). A failed load-more keeps what is shown and offers Try again (no automatic retry: scrolling must not hammer
// a failing server); a failed first load shows the error with a retry. `feed.reload` reads the first page again (an
// empty Home after the member followed someone from its suggestions). The feed holds ids only: the posts go to the
// post cache, which is also where it hears about new posts (prepended) and deleted ones (removed).
//
// The same actor runs a list's timeline (/lists/{id}, docs/product.md "Lists"), told by its `source` which pages to
// read: the home feed's or the list's (GET /lists/{id}/posts, the home feed's rules over the list's members). The
// member's own new post goes on top of Home only: it belongs to a list's timeline only if they are on the list, which
// the next reading of the list shows.
//
// And Explore (/explore, docs/product.md "Explore"): the community timeline (GET /posts/explore), read the same way. The
// member's own new post shows there on the next reading too: only a public top-level post belongs on it.
//
// And a post's quotes (/post/{id}/quotes, docs/product.md "Quotes"): GET /posts/{id}/quotes, newest first. A quote
// the member writes meanwhile shows there on the next reading.

export const FEED_LOAD_FAILED = 'Could not load your feed.'
export const LIST_TIMELINE_LOAD_FAILED = 'Could not load this list.'
export const EXPLORE_LOAD_FAILED = 'Could not load Explore.'
export const QUOTES_LOAD_FAILED = 'Could not load the quotes.'

/** Whose timeline the actor shows. */
export type FeedSource =
  | { kind: 'home' }
  | { kind: 'list'; listId: string }
  | { kind: 'explore' }
  | { kind: 'quotes'; postId: string }

export type FeedEvent = { type: 'feed.loadMore' } | { type: 'feed.retry' } | { type: 'feed.reload' } | PostsNews

export interface FeedInput {
  posts: PostsRef
  /** Home when absent. */
  source?: FeedSource
}

export interface FeedContext {
  posts: PostsRef
  source: FeedSource
  entries: PostEntry[]
  /** Where the next page starts; null before the first page and after the last. */
  cursor: string | null
  error: string | null
}

type FeedPage = PostPage<FeedPost>

/** The session actor as far as the feed needs it: the token its requests carry. */
interface SessionTokenHolder {
  getSnapshot(): { context: { token: string | null } }
}

const FAILED: Record<FeedSource['kind'], string> = {
  home: FEED_LOAD_FAILED,
  list: LIST_TIMELINE_LOAD_FAILED,
  explore: EXPLORE_LOAD_FAILED,
  quotes: QUOTES_LOAD_FAILED,
}
const failedText = (source: FeedSource) => FAILED[source.kind]

/** The page of the timeline the source names. */
function pageOf(source: FeedSource, cursor: string | null) {
  if (source.kind === 'list') return listCalls.getListPosts(source.listId, cursor)
  if (source.kind === 'explore') return postCalls.getExplore(cursor)
  if (source.kind === 'quotes') {
    return postCalls
      .getQuotes(source.postId, cursor)
      .pipe(Effect.map((page): FeedPage => ({ posts: page.posts.map((post) => ({ ...post, repostedBy: null })), nextCursor: page.nextCursor })))
  }
  return postCalls.getFeed(cursor)
}

type PageRequest = { source: FeedSource; cursor: string | null }

/**
 * A page of the timeline. Home's first page may be on its way already, sent by the boot script with the session's
 * token (lib/boot-prefetch.ts): adopted if it succeeded and the session still holds that token, else asked for with
 * `fetchNormally` (tests pass their own).
 */
export function feedPageCall(
  fetchNormally: (request: PageRequest, signal: AbortSignal) => Promise<FeedPage> = (request, signal) => run(pageOf(request.source, request.cursor), signal),
) {
  return adoptingCall<FeedPage, PageRequest>({
    call: 'homeFeed',
    use: (request) => request.source.kind === 'home' && request.cursor === null,
    tokenOf: ({ system }) => (system.get('session') as SessionTokenHolder | undefined)?.getSnapshot().context.token ?? null,
    read: (body) => body as FeedPage,
    fetchNormally,
  })
}

export const feedMachine = setup({
  types: {
    context: {} as FeedContext,
    events: {} as FeedEvent,
    input: {} as FeedInput,
    tags: {} as 'busy',
  },
  actors: {
    loadPage: feedPageCall(),
    watchPosts,
  },
  actions: {
    storePosts: sendTo(
      ({ context }) => context.posts,
      (_, page: FeedPage) => ({ type: 'posts.received' as const, posts: page.posts }),
    ),
    showFirstPage: assign((_, page: FeedPage) => ({
      entries: page.posts.map(toEntry),
      cursor: page.nextCursor,
      error: null,
    })),
    showNextPage: assign(({ context }, page: FeedPage) => ({
      entries: appendEntries(context.entries, page.posts.map(toEntry)),
      cursor: page.nextCursor,
      error: null,
    })),
    showCreated: assign(({ context }, post: Post) => ({ entries: prependEntries(context.entries, [toEntry(post)]) })),
    forget: assign(({ context }, id: string) => ({ entries: removeEntry(context.entries, id) })),
    forgetMuted: assign(({ context }, { authorId, ids }: { authorId: string; ids: ReadonlyArray<string> }) => ({
      entries: withoutMuted(context.entries, authorId, ids),
    })),
    forgetRepostsBy: assign(({ context }, memberId: string) => ({
      entries: withoutRepostsBy(context.entries, memberId),
    })),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
  },
  guards: {
    hasNextPage: (_, page: FeedPage) => page.nextCursor !== null,
    /** The member's own new post belongs on top of Home (a list or Explore shows it on its next reading, if it belongs). */
    showsOwnPosts: ({ context }) => context.source.kind === 'home',
  },
}).createMachine({
  id: 'feed',
  context: ({ input }) => ({ posts: input.posts, source: input.source ?? { kind: 'home' }, entries: [], cursor: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => ({ source: context.source, cursor: null }),
        onDone: [
          {
            guard: { type: 'hasNextPage', params: ({ event }) => event.output },
            target: 'ready.loaded',
            actions: [
              { type: 'storePosts', params: ({ event }) => event.output },
              { type: 'showFirstPage', params: ({ event }) => event.output },
            ],
          },
          {
            target: 'ready.end',
            actions: [
              { type: 'storePosts', params: ({ event }) => event.output },
              { type: 'showFirstPage', params: ({ event }) => event.output },
            ],
          },
        ],
        onError: { target: 'error', actions: { type: 'setError', params: ({ context, event }) => describeError(event.error, failedText(context.source)) } },
      },
    },
    error: {
      on: { 'feed.retry': { target: 'loading', actions: 'clearError' } },
    },
    ready: {
      invoke: { id: 'watchPosts', src: 'watchPosts', input: ({ context }) => ({ posts: context.posts }) },
      on: {
        'feed.reload': { target: 'loading' },
        // The cache has already stored it; the feed shows it on top (the member's own posts are in their feed).
        'post.created': { guard: 'showsOwnPosts', actions: { type: 'showCreated', params: ({ event }) => event.post } },
        'post.deleted': { actions: { type: 'forget', params: ({ event }) => event.id } },
        // Mute is feed-only: the muted member's posts leave Home at once (the profile and post page keep them).
        'author.muted': { actions: { type: 'forgetMuted', params: ({ event }) => event } },
        // A block: their posts were announced deleted one by one; their reposts of others' posts go too.
        'author.blocked': { actions: { type: 'forgetRepostsBy', params: ({ event }) => event.authorId } },
      },
      initial: 'loaded',
      states: {
        loaded: {
          on: { 'feed.loadMore': { target: 'loadingMore' } },
        },
        loadingMore: {
          tags: ['busy'],
          invoke: {
            id: 'loadMore',
            src: 'loadPage',
            input: ({ context }) => ({ source: context.source, cursor: context.cursor }),
            onDone: [
              {
                guard: { type: 'hasNextPage', params: ({ event }) => event.output },
                target: 'loaded',
                actions: [
                  { type: 'storePosts', params: ({ event }) => event.output },
                  { type: 'showNextPage', params: ({ event }) => event.output },
                ],
              },
              {
                target: 'end',
                actions: [
                  { type: 'storePosts', params: ({ event }) => event.output },
                  { type: 'showNextPage', params: ({ event }) => event.output },
                ],
              },
            ],
            onError: { target: 'loadMoreFailed', actions: { type: 'setError', params: ({ context, event }) => describeError(event.error, failedText(context.source)) } },
          },
        },
        /** The posts already shown stay; asking again (the list's Try again) retries the next page. */
        loadMoreFailed: {
          on: { 'feed.loadMore': { target: 'loadingMore', actions: 'clearError' } },
        },
        /** No next page: everything the feed holds is shown. */
        end: {},
      },
    },
  },
})

export type FeedMachine = typeof feedMachine
export type FeedRef = ActorRefFrom<FeedMachine>
