import { fromCallback, type EventObject } from 'xstate'
import type { Post } from '../../api/posts.calls'
import type { PostsRef } from './posts.machine'

/** What a list of posts hears from the post cache: a post was created (by a composer) or deleted. */
export type PostsNews = { type: 'post.created'; post: Post } | { type: 'post.deleted'; id: string }

/**
 * Invoked by every list of posts (home feed, post page, profile) so it hears about new and deleted posts without
 * refetching. Stopping the list unsubscribes.
 */
export const watchPosts = fromCallback<EventObject, { posts: PostsRef }>(({ input, sendBack }) => {
  const created = input.posts.on('post.created', ({ post }) => sendBack({ type: 'post.created', post } satisfies PostsNews))
  const deleted = input.posts.on('post.deleted', ({ id }) => sendBack({ type: 'post.deleted', id } satisfies PostsNews))
  return () => {
    created.unsubscribe()
    deleted.unsubscribe()
  }
})
