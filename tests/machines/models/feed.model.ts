import { createActor, type AnyEventObject } from 'xstate'
import type { FeedPost } from '../../../src/api/posts.calls'
import { Network, Server } from '../../../src/api/errors'
import { feedMachine } from '../../../src/machines/feed/feed.machine'
import { postsMachine } from '../../../src/machines/posts/posts.machine'
import { ann, asFeedPost, makePost, robinSummary } from '../support/post-fixtures'
import type { MachineModel, Walk } from '../support/walks'

// The home feed's model: the pages the server answers, the failures, and the news from the post cache. Walked by
// tests/machines/feed.machine.test.ts and printed by `npm run paths -- feed`.

export const first = [asFeedPost(makePost('a1')), asFeedPost(makePost('a2'), robinSummary), asFeedPost(makePost('a3'))]
export const second = [asFeedPost(makePost('b1')), asFeedPost(makePost('a3'))] // a3 again: pages may overlap
export const page = (posts: FeedPost[], nextCursor: string | null) => ({ posts, nextCursor })

export const offline = new Network({ message: 'Unable to reach the server. Check your connection and try again.' })
export const down = new Server({ status: 503, message: 'Database unavailable', fromServer: true })
const annId = ann.id
export const mine = makePost('n1', { author: robinSummary, content: 'Just posted' })

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.loadPage', output: page(first, 'cursor-1') },
  { type: 'xstate.done.actor.loadPage', output: page([], null) },
  { type: 'xstate.error.actor.loadPage', error: offline },
  { type: 'feed.retry' },
  { type: 'feed.reload' },
  { type: 'feed.loadMore' },
  { type: 'xstate.done.actor.loadMore', output: page(second, 'cursor-2') },
  { type: 'xstate.done.actor.loadMore', output: page(second, null) },
  { type: 'xstate.error.actor.loadMore', error: down },
  { type: 'post.created', post: mine },
  { type: 'post.deleted', id: 'a2' },
  // Ann muted from a post menu: the cache names her posts it holds (b1 may not be shown yet; a2 is here through
  // Robin's repost, so it stays).
  { type: 'author.muted', authorId: annId, ids: ['a1', 'a2', 'b1'] },
  // Robin blocked: the cache announces each of his stored posts deleted, then the block, so his repost of a2 goes.
  { type: 'author.blocked', authorId: robinSummary.id },
]

const label = (event: AnyEventObject) => {
  const output = event.output as { posts: FeedPost[]; nextCursor: string | null } | undefined
  if (!output) return undefined
  return `${event.type.replace('xstate.done.actor.', '')}(${output.posts.length} posts${output.nextCursor ? ', more' : ', last'})`
}

/** A list's timeline: the same actor reading GET /lists/{id}/posts. */
export const listSource = { kind: 'list', listId: 'list-1' } as const
/** Explore: the same actor reading GET /posts/explore. */
export const exploreSource = { kind: 'explore' } as const
/** A post's quotes: the same actor reading GET /posts/{id}/quotes. */
export const quotesSource = { kind: 'quotes', postId: 'p1' } as const

const walk = (name: string, source: typeof listSource | typeof exploreSource | typeof quotesSource | undefined): Walk => ({
  name,
  options: () => ({
    input: { posts: createActor(postsMachine).start(), ...(source ? { source } : {}) },
    events,
    // What the member can tell apart: the state, the posts shown, the cursor and the error.
    serializeState: (s) =>
      JSON.stringify({ value: s.value, ids: s.context.entries.map((e: { id: string }) => e.id), cursor: s.context.cursor, error: s.context.error }),
    // New and deleted posts arrive in any order around the page loads: every simple path would be thousands. The
    // shortest path to each state plus one through each edge still reach every state and transition.
    edgesOnly: 'the timeline grows with each page and changes with each post-cache event: every order of pages and news is its own state',
    label,
  }),
})

export const feedModel = {
  name: 'feed',
  machine: feedMachine,
  // Home, a list's timeline, Explore and a post's quotes (where the member's own new post does not go on top).
  walks: [walk('home', undefined), walk('list', listSource), walk('explore', exploreSource), walk('quotes', quotesSource)],
} satisfies MachineModel
