import { fromCallback, type EventObject } from 'xstate'
import type { Post } from '../../api/posts.calls'
import type { PostsRef } from './posts.machine'

/**
 * What a list of posts hears from the post cache: a post was created (by a composer) or deleted, or the member muted an
 * author (the ids of their stored posts; only the home feed drops them, since mute is feed-only), or blocked one
 * (their posts are announced deleted one by one; this says their reposts go too).
 */
export type PostsNews =
  | { type: 'post.created'; post: Post }
  | { type: 'post.deleted'; id: string }
  | { type: 'author.muted'; authorId: string; ids: ReadonlyArray<string> }
  | { type: 'author.blocked'; authorId: string }

/**
 * Invoked by every list of posts (home feed, post page, profile) so it hears about new and deleted posts without
 * refetching. Stopping the list unsubscribes.
 */
export const watchPosts = fromCallback<EventObject, { posts: PostsRef }>(({ input, sendBack }) => {
  const created = input.posts.on('post.created', ({ post }) => sendBack({ type: 'post.created', post } satisfies PostsNews))
  const deleted = input.posts.on('post.deleted', ({ id }) => sendBack({ type: 'post.deleted', id } satisfies PostsNews))
  const muted = input.posts.on('author.muted', ({ authorId, ids }) =>
    sendBack({ type: 'author.muted', authorId, ids } satisfies PostsNews),
  )
  const blocked = input.posts.on('author.blocked', ({ authorId }) =>
    sendBack({ type: 'author.blocked', authorId } satisfies PostsNews),
  )
  return () => {
    blocked.unsubscribe()
    muted.unsubscribe()
    created.unsubscribe()
    deleted.unsubscribe()
  }
})
