import { describe, expect, it } from 'vitest'
import { createActor, fromCallback } from 'xstate'
import type { FeedPost } from '../../src/api/posts.calls'
import { feedMachine, type FeedContext } from '../../src/machines/feed/feed.machine'
import {
  selectCanLoadMore,
  selectEntries,
  selectIsEnd,
  selectIsLoading,
  selectIsLoadingMore,
  selectLoadFailed,
  selectLoadMoreFailed,
} from '../../src/machines/feed/feed.selectors'
import { postsMachine } from '../../src/machines/posts/posts.machine'
import { exploreSource, feedModel, first, listSource, mine, offline, page, quotesSource } from './models/feed.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, perform, settle } from './support/model'
import { ann, robinSummary, SpawnedCalls } from './support/post-fixtures'

// The home feed, walked path by path on a real actor with a real post cache behind it. After each step the test checks
// what Home shows: the skeleton, the error with its retry, the posts in order (and that the cache holds them), the
// spinner under the list, Try again after a failed page, the end; and that a new post goes on top and a deleted one
// leaves without a refetch. The events and fixtures are the model's (./models/feed.model.ts), shared with
// `npm run paths -- feed`.

const idsOf = (entries: ReadonlyArray<{ id: string }>) => entries.map((e) => e.id)
/** What of the feed's context a path must match: the posts shown (by id), where the next page starts, the error. */
const feedKey = ({ context }: { context: FeedContext }) => ({ entries: idsOf(context.entries), cursor: context.cursor, error: context.error })

describeWalks('feed machine', feedModel, async ({ walk, inspect, replay }) => {
  const source = walk.name === 'list' ? listSource : walk.name === 'explore' ? exploreSource : walk.name === 'quotes' ? quotesSource : undefined
  const home = { kind: 'home' }
  const calls = new Calls()
  const posts = createActor(postsMachine).start()
  const machine = feedMachine.provide({
    actors: { loadPage: calls.invoked(), watchPosts: fromCallback(() => {}) },
  })
  const actor = createActor(machine, { input: { posts, ...(source ? { source } : {}) }, inspect }).start()
  // Its source says which pages it reads: the home feed's, or the list's.
  expect(calls.started[0]).toEqual({ id: 'loadPage', input: { source: source ?? home, cursor: null } })

  for await (const { event, before, snapshot } of replay(actor, { calls, context: feedKey })) {
    // Exactly one of Home's states shows.
    const shown = [selectIsLoading(snapshot), selectLoadFailed(snapshot), snapshot.matches('ready')]
    expect(shown.filter(Boolean)).toHaveLength(1)
    const entries = selectEntries(snapshot)

    if (event.type === 'feed.retry') expect(calls.started.at(-1)).toEqual({ id: 'loadPage', input: { source: source ?? home, cursor: null } })
    if (event.type === 'feed.reload') {
      // The first page again, from the top; the placeholders show until it answers.
      expect(calls.started.at(-1)).toEqual({ id: 'loadPage', input: { source: source ?? home, cursor: null } })
      expect(selectIsLoading(snapshot)).toBe(true)
    }
    if (event.type === 'feed.loadMore') {
      // The next page starts where the last one ended.
      expect(calls.started.at(-1)).toEqual({ id: 'loadMore', input: { source: source ?? home, cursor: before.context.cursor } })
      expect(selectIsLoadingMore(snapshot)).toBe(true)
      expect(snapshot.hasTag('busy')).toBe(true)
    }
    if (event.type === 'xstate.error.actor.loadPage') {
      expect(selectLoadFailed(snapshot)).toBe(true)
      expect(snapshot.context.error).toBe(offline.message)
      expect(snapshot.can({ type: 'feed.retry' })).toBe(true)
    }
    if (event.type === 'xstate.done.actor.loadPage') {
      const loaded = (event.output as { posts: FeedPost[] }).posts
      expect(idsOf(entries)).toEqual(loaded.map((p) => p.id))
      // Reposts keep who reposted them on the row; the cache holds the post itself.
      expect(entries.find((e) => e.id === 'a2')?.repostedBy ?? null).toEqual(loaded.length ? robinSummary : null)
      for (const post of loaded) expect(posts.getSnapshot().context.entities[post.id]).toMatchObject({ id: post.id, author: ann })
      if (loaded.length) expect(posts.getSnapshot().context.entities.a2).not.toHaveProperty('repostedBy')
      // An empty first page is the empty feed ('No posts yet'), with nothing more to load.
      if (loaded.length === 0) expect(selectIsEnd(snapshot) && entries.length === 0).toBe(true)
    }
    if (event.type === 'xstate.done.actor.loadMore') {
      // Appended once each, in order, after what was shown.
      expect(idsOf(entries)).toEqual([...new Set([...idsOf(before.context.entries), 'b1', 'a3'])])
      expect(selectCanLoadMore(snapshot)).toBe((event.output as { nextCursor: string | null }).nextCursor !== null)
    }
    if (event.type === 'xstate.error.actor.loadMore') {
      // A failed next page keeps every post shown and offers Try again, but does not retry by itself.
      expect(selectLoadMoreFailed(snapshot)).toBe(true)
      expect(entries).toEqual(before.context.entries)
      expect(snapshot.can({ type: 'feed.loadMore' })).toBe(true)
    }
    if (event.type === 'post.created' && source) {
      // A list's timeline and Explore show the member's own new post on their next reading (if it belongs), not now.
      expect(entries).toEqual(before.context.entries)
    } else if (event.type === 'post.created') {
      expect(entries[0]).toEqual({ id: 'n1', repostedBy: null })
      expect(idsOf(entries).filter((id) => id === 'n1')).toHaveLength(1)
    }
    if (event.type === 'post.deleted') expect(idsOf(entries)).not.toContain('a2')
    if (event.type === 'author.muted') {
      // Mute is feed-only, and here it acts at once: the rows of the posts the cache named leave, but a2 stays
      // through Robin's repost; the rest keep their order.
      const kept = before.context.entries.filter((e) => e.repostedBy !== null || !['a1', 'a2', 'b1'].includes(e.id))
      expect(idsOf(entries)).toEqual(idsOf(kept))
      if (idsOf(before.context.entries).includes('a2')) expect(idsOf(entries)).toContain('a2')
    }
    if (event.type === 'author.blocked') {
      // Only the rows Robin's reposts brought go (a2 here); every other row stays, in order.
      expect(entries.some((e) => e.repostedBy?.id === robinSummary.id)).toBe(false)
      expect(idsOf(entries)).toEqual(idsOf(before.context.entries.filter((e) => e.repostedBy?.id !== robinSummary.id)))
    }
    if (selectIsEnd(snapshot)) expect(selectCanLoadMore(snapshot)).toBe(false)
  }
  actor.stop()
  posts.stop()
})

describe('feed machine', () => {
  it('hears new and deleted posts from the post cache (no refetch)', async () => {
    const calls = new Calls()
    const spawned = new SpawnedCalls()
    const posts = createActor(
      postsMachine.provide({ actors: { reactionCall: spawned.logic('reactionCall'), deleteCall: spawned.logic('deleteCall') } }),
    ).start()
    const feed = createActor(feedMachine.provide({ actors: { loadPage: calls.invoked() } }), { input: { posts } }).start()
    await perform(feed, calls, { type: 'xstate.done.actor.loadPage', output: page(first, null) })

    posts.send({ type: 'post.created', post: mine })
    await settle()
    expect(idsOf(feed.getSnapshot().context.entries)).toEqual(['n1', 'a1', 'a2', 'a3'])

    posts.send({ type: 'post.delete', id: 'a1' })
    posts.send({ type: 'post.delete.succeeded', id: 'a1' })
    await settle()
    expect(idsOf(feed.getSnapshot().context.entries)).toEqual(['n1', 'a2', 'a3'])
    expect(calls.started).toHaveLength(1)
    feed.stop()
    posts.stop()
  })
})
