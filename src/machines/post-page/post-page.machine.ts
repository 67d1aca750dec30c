import { assign, fromPromise, sendTo, setup } from 'xstate'
import { run } from '../../api/calls'
import { postCalls, type Post, type PostDetailQuery, type PostDetailResponse } from '../../api/posts.calls'
import type { PostsRef } from '../posts/posts.machine'
import { appendEntries, removeEntry, toEntry, type PostEntry } from '../posts/posts.model'
import { watchPosts, type PostsNews } from '../posts/watch-posts'
import { navigate } from '../lib/navigation'

// The post page (/post/{id}, docs/product.md "Post page"): the post and its direct replies, oldest first, with Load
// more. Any failure to load shows 'Post not found' (missing, not visible, or unreachable look the same). A reply
// posted here appears at the end of the list; a deleted reply leaves it; deleting the post itself leaves the page.

export type PostPageEvent = { type: 'replies.loadMore' } | PostsNews

export interface PostPageContext {
  posts: PostsRef
  postId: string
  replies: PostEntry[]
  cursor: string | null
}

export const postPageMachine = setup({
  types: {
    context: {} as PostPageContext,
    events: {} as PostPageEvent,
    input: {} as { posts: PostsRef; postId: string },
    tags: {} as 'busy',
  },
  actors: {
    loadPost: fromPromise<PostDetailResponse, PostDetailQuery>(({ input, signal }) =>
      run(postCalls.getPost(input), signal),
    ),
    watchPosts,
  },
  actions: {
    storePosts: sendTo(
      ({ context }) => context.posts,
      (_, page: PostDetailResponse) => ({ type: 'posts.received' as const, posts: [page.post, ...page.replies] }),
    ),
    showReplies: assign(({ context }, page: PostDetailResponse) => ({
      replies: appendEntries(context.replies, page.replies.map(toEntry)),
      cursor: page.nextCursor,
    })),
    showReply: assign(({ context }, post: Post) => ({ replies: appendEntries(context.replies, [toEntry(post)]) })),
    forget: assign(({ context }, id: string) => ({ replies: removeEntry(context.replies, id) })),
    /** The post is gone: back to Home, where the member most likely came from. */
    leave: () => navigate('/'),
  },
  guards: {
    hasMoreReplies: (_, page: PostDetailResponse) => page.nextCursor !== null,
    isReplyHere: ({ context }, post: Post) => post.replyTo === context.postId,
    isThisPost: ({ context }, id: string) => id === context.postId,
  },
}).createMachine({
  id: 'postPage',
  context: ({ input }) => ({ posts: input.posts, postId: input.postId, replies: [], cursor: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadPost',
        src: 'loadPost',
        input: ({ context }) => ({ id: context.postId }),
        onDone: [
          {
            guard: { type: 'hasMoreReplies', params: ({ event }) => event.output },
            target: 'loaded.more',
            actions: [
              { type: 'storePosts', params: ({ event }) => event.output },
              { type: 'showReplies', params: ({ event }) => event.output },
            ],
          },
          {
            target: 'loaded.complete',
            actions: [
              { type: 'storePosts', params: ({ event }) => event.output },
              { type: 'showReplies', params: ({ event }) => event.output },
            ],
          },
        ],
        onError: { target: 'notFound' },
      },
    },
    /** 'Post not found': missing, not visible to the member, or the server could not be reached. */
    notFound: {},
    loaded: {
      invoke: { id: 'watchPosts', src: 'watchPosts', input: ({ context }) => ({ posts: context.posts }) },
      on: {
        'post.created': {
          guard: { type: 'isReplyHere', params: ({ event }) => event.post },
          actions: { type: 'showReply', params: ({ event }) => event.post },
        },
        'post.deleted': [
          { guard: { type: 'isThisPost', params: ({ event }) => event.id }, target: 'deleted' },
          { actions: { type: 'forget', params: ({ event }) => event.id } },
        ],
      },
      initial: 'complete',
      states: {
        /** More replies than shown: Load more. */
        more: {
          on: { 'replies.loadMore': { target: 'loadingMore' } },
        },
        loadingMore: {
          tags: ['busy'],
          invoke: {
            id: 'loadMore',
            src: 'loadPost',
            input: ({ context }) => ({ id: context.postId, cursor: context.cursor }),
            onDone: [
              {
                guard: { type: 'hasMoreReplies', params: ({ event }) => event.output },
                target: 'more',
                actions: [
                  { type: 'storePosts', params: ({ event }) => event.output },
                  { type: 'showReplies', params: ({ event }) => event.output },
                ],
              },
              {
                target: 'complete',
                actions: [
                  { type: 'storePosts', params: ({ event }) => event.output },
                  { type: 'showReplies', params: ({ event }) => event.output },
                ],
              },
            ],
            // Silent like the other reads: the replies shown stay and Load more is offered again.
            onError: { target: 'more' },
          },
        },
        /** Every reply is shown. */
        complete: {},
      },
    },
    /** The member deleted this post from its own page. */
    deleted: {
      entry: 'leave',
    },
  },
})

export type PostPageMachine = typeof postPageMachine
