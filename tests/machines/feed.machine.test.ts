import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, type AnyEventObject } from 'xstate'
import type { FeedPost } from '../../src/api/posts.calls'
import { Network, Server } from '../../src/api/errors'
import { feedMachine } from '../../src/machines/feed/feed.machine'
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
import { Calls } from './support/controlled-actors'
import { Coverage, describePath, modelPaths, perform, settle, type Path } from './support/model'
import { ann, asFeedPost, makePost, robinSummary, SpawnedCalls } from './support/post-fixtures'

// The home feed, walked path by path on a real actor with a real post cache behind it. After each step the test checks
// what Home shows: the skeleton, the error with its retry, the posts in order (and that the cache holds them), the
// spinner under the list, Try again after a failed page, the end; and that a new post goes on top and a deleted one
// leaves without a refetch.

const first = [asFeedPost(makePost('a1')), asFeedPost(makePost('a2'), robinSummary), asFeedPost(makePost('a3'))]
const second = [asFeedPost(makePost('b1')), asFeedPost(makePost('a3'))] // a3 again: pages may overlap
const page = (posts: FeedPost[], nextCursor: string | null) => ({ posts, nextCursor })

const offline = new Network({ message: 'Unable to reach the server. Check your connection and try again.' })
const down = new Server({ status: 503, message: 'Database unavailable', fromServer: true })
const mine = makePost('n1', { author: robinSummary, content: 'Just posted' })

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.loadPage', output: page(first, 'cursor-1') },
  { type: 'xstate.done.actor.loadPage', output: page([], null) },
  { type: 'xstate.error.actor.loadPage', error: offline },
  { type: 'feed.retry' },
  { type: 'feed.loadMore' },
  { type: 'xstate.done.actor.loadMore', output: page(second, 'cursor-2') },
  { type: 'xstate.done.actor.loadMore', output: page(second, null) },
  { type: 'xstate.error.actor.loadMore', error: down },
  { type: 'post.created', post: mine },
  { type: 'post.deleted', id: 'a2' },
]

const label = (event: AnyEventObject) => {
  const output = event.output as { posts: FeedPost[]; nextCursor: string | null } | undefined
  if (!output) return undefined
  return `${event.type.replace('xstate.done.actor.', '')}(${output.posts.length} posts${output.nextCursor ? ', more' : ', last'})`
}

const graphPosts = createActor(postsMachine).start()
const paths: Path[] = modelPaths(feedMachine, {
  input: { posts: graphPosts },
  events,
  // What the member can tell apart: the state, the posts shown, the cursor and the error.
  serializeState: (s) =>
    JSON.stringify({ value: s.value, ids: s.context.entries.map((e: { id: string }) => e.id), cursor: s.context.cursor, error: s.context.error }),
  // New and deleted posts arrive in any order around the page loads: every simple path would be thousands. The
  // shortest path to each state plus one through each edge still reach every state and transition.
  simplePaths: false,
  label,
})
const coverage = new Coverage(feedMachine)
const idsOf = (entries: ReadonlyArray<{ id: string }>) => entries.map((e) => e.id)

describe('feed machine', () => {
  it.each(paths.map((path) => [describePath(path, label), path] as const))('%s', async (_name, path) => {
    const calls = new Calls()
    const posts = createActor(postsMachine).start()
    const machine = feedMachine.provide({
      actors: { loadPage: calls.invoked(), watchPosts: fromCallback(() => {}) },
    })
    const actor = createActor(machine, { input: { posts }, inspect: coverage.inspector }).start()
    coverage.see(actor.getSnapshot())

    for (const step of path.steps) {
      const before = actor.getSnapshot()
      await perform(actor, calls, step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(idsOf(snapshot.context.entries)).toEqual(idsOf(step.state.context.entries))
      expect(snapshot.context.cursor).toBe(step.state.context.cursor)
      expect(snapshot.context.error).toBe(step.state.context.error)

      // Exactly one of Home's states shows.
      const shown = [selectIsLoading(snapshot), selectLoadFailed(snapshot), snapshot.matches('ready')]
      expect(shown.filter(Boolean)).toHaveLength(1)
      const entries = selectEntries(snapshot)
      const event = step.event

      if (event.type === 'feed.retry') expect(calls.started.at(-1)).toEqual({ id: 'loadPage', input: { cursor: null } })
      if (event.type === 'feed.loadMore') {
        // The next page starts where the last one ended.
        expect(calls.started.at(-1)).toEqual({ id: 'loadMore', input: { cursor: before.context.cursor } })
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
      if (event.type === 'post.created') {
        expect(entries[0]).toEqual({ id: 'n1', repostedBy: null })
        expect(idsOf(entries).filter((id) => id === 'n1')).toHaveLength(1)
      }
      if (event.type === 'post.deleted') expect(idsOf(entries)).not.toContain('a2')
      if (selectIsEnd(snapshot)) expect(selectCanLoadMore(snapshot)).toBe(false)
    }
    actor.stop()
    posts.stop()
  })

  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })

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
