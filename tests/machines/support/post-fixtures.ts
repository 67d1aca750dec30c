import { fromCallback, type EventObject } from 'xstate'
import type { FeedPost, Post, UserSummary } from '../../../src/api/posts.calls'

// Posts as the server would send them, for the post cache, feed, post page and composer tests.

export const robinSummary: UserSummary = {
  id: '0190a6b2-0000-7000-8000-000000000001',
  username: 'robin',
  displayName: 'Robin Wren',
  avatar: null,
  verified: false,
}

export const ann: UserSummary = {
  id: '0190a6b2-0000-7000-8000-000000000002',
  username: 'ann',
  displayName: 'Ann Lark',
  avatar: '/media/ann.webp',
  verified: true,
}

let minute = 0

export function makePost(id: string, fields: Partial<Post> = {}): Post {
  minute += 1
  return {
    id,
    author: ann,
    content: `Post ${id} #wren`,
    media: [],
    mentions: [],
    hashtags: ['wren'],
    visibility: 'public',
    sensitive: false,
    sensitiveReason: null,
    replyTo: null,
    createdAt: new Date(Date.UTC(2026, 10, 20, 12, minute)).toISOString(),
    edited: false,
    editedAt: null,
    likeCount: 7,
    repostCount: 2,
    replyCount: 1,
    views: 40,
    liked: false,
    reposted: false,
    bookmarked: false,
    ...fields,
  }
}

export function asFeedPost(post: Post, repostedBy: UserSummary | null = null): FeedPost {
  return { ...post, repostedBy }
}

/**
 * Stand-ins for the cache's per-post call actors: they record what was asked (and when it was stopped) and report
 * nothing: the test sends the answer events (`post.reaction.settled`, ...) itself, as path steps.
 */
export class SpawnedCalls {
  readonly started: Array<{ src: string; input: unknown }> = []
  readonly stopped: Array<{ src: string; input: unknown }> = []

  logic<TInput>(src: string) {
    return fromCallback<EventObject, TInput>(({ input }) => {
      this.started.push({ src, input })
      return () => void this.stopped.push({ src, input })
    })
  }
}
