import type { AnyEventObject } from 'xstate'
import { Invalid } from '../../../src/api/errors'
import { postsMachine } from '../../../src/machines/posts/posts.machine'
import { ann, makePost, robinSummary } from '../support/post-fixtures'
import type { MachineModel } from '../support/walks'

// The post cache's model, in five small walks (likes, reposts, muting and blocking an author, everything else) instead of one: together they reach
// every transition, and each stays small enough to walk every simple path. Walked by
// tests/machines/posts.machine.test.ts and printed by `npm run paths -- posts`.

export const p1 = makePost('p1', { likeCount: 7, repostCount: 2, liked: false, reposted: false })
const p2 = makePost('p2', { visibility: 'followers', sensitive: true, sensitiveReason: 'Spoilers' })
export const reply = makePost('r1', { replyTo: 'p1', content: 'A reply' })
/** Robin's own post: blocking Ann leaves it where it is. */
const mine = makePost('m1', { author: robinSummary })
/** The member blocked from a card's menu or a profile (every `makePost` is Ann's unless told otherwise). */
export const blockedAuthorId = ann.id

/** Ann's post as the post page sends it when the viewer muted her: hidden behind 'Muted: @ann'. */
export const mutedPost = makePost('p3', { muted: '@ann' })

/** A rate limit's refusal: the server's words say how long to wait. */
export const limited = new Invalid({
  status: 429,
  message: 'Too many likes and reposts. Try again in 12 minutes.',
  fromServer: true,
  details: [],
})

/** The same post read again while a like is in flight: the server has not counted the like yet. */
const p1Stale = { ...p1, views: 41 }

export const votedPoll = {
  options: [
    { id: 'o1', text: 'Tea', votes: 2 },
    { id: 'o2', text: 'Coffee', votes: 0 },
  ],
  multiple: false,
  closesAt: '2030-01-01T00:00:00.000Z',
  votersCount: 2,
  ownVotes: ['o1'],
}

const scenarios: Record<string, AnyEventObject[]> = {
  likes: [
    { type: 'posts.received', posts: [p1] },
    { type: 'post.like', id: 'p1' },
    { type: 'post.reaction.settled', id: 'p1', reaction: 'like', active: true, count: 9 },
    { type: 'post.reaction.refused', id: 'p1', reaction: 'like' },
    { type: 'post.reaction.refused', id: 'p1', reaction: 'like', error: limited },
    { type: 'posts.received', posts: [p1Stale] },
  ],
  reposts: [
    { type: 'posts.received', posts: [p1, p2] },
    { type: 'post.repost', id: 'p1' },
    { type: 'post.repost', id: 'p2' },
    { type: 'post.reaction.settled', id: 'p1', reaction: 'repost', active: true, count: 3 },
    { type: 'post.reaction.refused', id: 'p1', reaction: 'repost' },
  ],
  others: [
    { type: 'posts.received', posts: [p1, p2] },
    { type: 'post.created', post: reply },
    { type: 'post.reveal', id: 'p2' },
    { type: 'post.delete', id: 'p1' },
    { type: 'post.delete.succeeded', id: 'p1' },
    { type: 'post.delete.failed', id: 'p1' },
  ],
  bookmarks: [
    { type: 'posts.received', posts: [p1, { ...p2, bookmarked: true }] },
    { type: 'post.bookmark', id: 'p1' },
    { type: 'post.bookmark', id: 'p2' },
    // The Bookmarks dialog's Remove: for a saved post, and for one the cache knows unsaved.
    { type: 'post.bookmark', id: 'p2', bookmarked: false },
    { type: 'post.bookmark', id: 'p1', bookmarked: false },
    { type: 'post.bookmark.settled', id: 'p1', bookmarked: true },
    { type: 'post.bookmark.settled', id: 'p2', bookmarked: false },
    { type: 'post.bookmark.refused', id: 'p1', bookmarked: true, error: new Error('offline') },
    { type: 'post.bookmark.refused', id: 'p2', bookmarked: false, error: new Error('offline') },
    { type: 'post.bookmark.refused', id: 'p1', bookmarked: true, error: limited },
    { type: 'post.bookmarked', id: 'p1', bookmarked: true },
  ],
  // Detach quote (detach-quote.machine.ts): the quote shows the quoted post unavailable.
  quotes: [
    { type: 'posts.received', posts: [{ ...p1, quote: { post: p2 } }, p2] },
    { type: 'post.quote.detached', id: 'p1' },
    { type: 'post.quote.detached', id: 'p2' },
  ],
  polls: [
    { type: 'posts.received', posts: [p1] },
    // The poll actor's counted vote: the post's poll as the voter now sees it (an unknown post changes nothing).
    { type: 'post.poll.voted', id: 'p1', poll: votedPoll },
    { type: 'post.poll.voted', id: 'gone', poll: votedPoll },
  ],
  mutes: [
    { type: 'posts.received', posts: [mutedPost, mine] },
    { type: 'post.showMuted', id: 'p3' },
    { type: 'author.muted', authorId: ann.id },
  ],
  blocks: [
    { type: 'posts.received', posts: [p1, mine] },
    { type: 'post.like', id: 'p1' },
    { type: 'post.delete', id: 'p1' },
    { type: 'author.blocked', authorId: ann.id },
  ],
}

/** Tells apart events that differ only in their payload (which posts a page held, which post was clicked). */
const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'posts.received') return `received(${(event.posts as Array<{ id: string; views: number }>).map((p) => (p.views === 41 ? `${p.id} again` : p.id)).join(',')})`
  if (event.type === 'posts.received' && (event.posts as Array<{ bookmarked: boolean }>).some((p) => p.bookmarked)) return 'received(p1,p2 saved)'
  if (event.type === 'post.bookmark' && event.bookmarked === false) return `post.bookmark(${event.id as string}, remove)`
  if (event.type === 'post.bookmarked') return `post.bookmarked(${event.id as string}, ${String(event.bookmarked)})`
  if (event.type === 'post.bookmark.settled' || event.type === 'post.bookmark.refused') {
    return `${event.type}(${event.id as string}, ${event.bookmarked ? 'save' : 'remove'})`
  }
  if (typeof event.id === 'string') return `${event.type}(${event.id})`
  if (event.type === 'author.blocked') return 'author.blocked(ann)'
  if (event.type === 'author.muted') return 'author.muted(ann)'
  return undefined
}

export const postsModel = {
  name: 'posts',
  machine: postsMachine,
  walks: Object.entries(scenarios).map(([name, events]) => ({
    name,
    options: () => ({
      events,
      serializeState: (s: { context: unknown }) => JSON.stringify(s.context),
      label,
      edgesOnly:
        name === 'others' || name === 'bookmarks'
          ? 'creating, revealing and deleting combine freely into hundreds of simple paths that teach nothing new'
          : undefined,
      // Only the answer a call in flight could give: a save answers as a save, a removal as a removal.
      offer:
        name === 'bookmarks'
          ? (snapshot: { context: { bookmarking: Record<string, boolean> } }, event: AnyEventObject) =>
              (event.type !== 'post.bookmark.settled' && event.type !== 'post.bookmark.refused') ||
              snapshot.context.bookmarking[event.id as string] === !event.bookmarked
          : undefined,
    }),
  })),
} satisfies MachineModel
