import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, fromPromise, type SnapshotFrom } from 'xstate'
import type { Trend, UserSearchResult } from '../../src/api/discover.calls'
import { discoverMachine } from '../../src/machines/discover/discover.machine'
import type { Post } from '../../src/api/posts.calls'
import { searchMachine, type SearchResults } from '../../src/machines/search/search.machine'
import { searchHref } from '../../src/machines/search/search.rules'
import { selectCanLoadMore, selectPhase, selectShowsPanels } from '../../src/machines/search/search.selectors'
import { postsMachine } from '../../src/machines/posts/posts.machine'
import { followMachine } from '../../src/machines/follow/follow.machine'
import { annUser, down, offline, searchModel, viewerId } from './models/search.model'
import { Calls } from './support/controlled-actors'
import { Coverage, perform } from './support/model'
import { withToasts, shownToasts } from './support/toasts'
import { walkPaths } from './support/walks'

// The Search screen, walked path by path on a real actor with a real post cache behind it (the model:
// ./models/search.model.ts, shared with `npm run paths -- search`). After each step the test checks what the screen
// shows (exactly one of: the panels, typing, too short, loading, failed, empty, the list), what the actor asked the
// server (the debounce, then one search for the open tab and the term; none for a 1-character users query), what it
// wrote to the address (replacing the entry while typing, a new entry for a chosen hashtag, nothing when the address
// itself changed), and the rows: posts in the cache and in order, users with a Follow actor each but the viewer's own.
// The panels of an empty box are the discovery actor's (its own test: discover.test.ts); here a stand-in plays it.

type Snapshot = SnapshotFrom<typeof searchMachine>
const coverage = new Coverage(searchMachine)
/** The discovery actor, its calls never answering (its own test answers them). */
const never = <T,>() => fromPromise<T>(() => new Promise<T>(() => {}))
const panels = discoverMachine.provide({ actors: { loadTrending: never<Trend[]>(), loadSuggestions: never<UserSearchResult[]>() } })
const idsOf = (entries: ReadonlyArray<{ id: string }>) => entries.map((e) => e.id)
const userIds = (s: Snapshot) => s.context.users.map((row) => row.user.id)

function start(q: string) {
  const calls = new Calls()
  const urls: Array<{ href: string; replace: boolean }> = []
  const posts = createActor(postsMachine).start()
  const machine = searchMachine.provide({
    actors: {
      search: calls.invoked(),
      debounce: calls.actor('debounce'),
      discover: panels,
      watchPosts: fromCallback(() => {}),
    },
    actions: { writeUrl: ({ context }, { replace }: { replace: boolean }) => urls.push({ href: searchHref(context.term), replace }) },
  })
  const actor = createActor(machine, { input: { posts, viewerId, q }, inspect: coverage.inspector }).start()
  return { calls, urls, posts, actor }
}

describe.each(searchModel.walks.map((walk) => [walk.name, walk] as const))('search machine (%s)', (_walk, walk) => {
  const paths = walkPaths(searchModel, walk)
  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_name, path) => {
    const q = (walk.options().input as { q: string }).q
    const { calls, urls, posts, actor } = start(q)
    coverage.see(actor.getSnapshot())
    // The panels start with the screen, for its viewer; an address with q searches it at once on the Posts tab.
    expect(actor.getSnapshot().children.discover?.getSnapshot().context.viewerId).toBe(viewerId)
    if (q) expect(calls.started.at(-1)).toEqual({ id: 'search', input: { tab: 'posts', term: q, cursor: null } })

    for (const step of path.steps) {
      const before = actor.getSnapshot()
      const startedBefore = calls.started.length
      const urlsBefore = urls.length
      await perform(actor, calls, step.event)
      const s = actor.getSnapshot()
      coverage.see(s)
      const event = step.event
      const started = calls.started.slice(startedBefore)
      const written = urls.slice(urlsBefore)

      expect(s.value).toEqual(step.state.value)
      expect(s.context.text).toBe(step.state.context.text)
      expect(s.context.term).toBe(step.state.context.term)
      expect(s.context.tab).toBe(step.state.context.tab)
      expect(idsOf(s.context.entries)).toEqual(idsOf(step.state.context.entries))
      expect(s.context.error).toBe(step.state.context.error)

      // What shows: the panels with an empty box, else exactly one state of the open tab.
      expect(selectShowsPanels(s)).toBe(s.context.text.trim() === '')
      if (selectShowsPanels(s)) expect(s.matches({ query: 'idle' })).toBe(true)
      else expect(selectPhase(s)).not.toBe('panels')

      if (event.type === 'search.typed') {
        if ((event.text as string).trim() === '') {
          expect(written).toEqual([{ href: '/search', replace: true }])
          expect(started).toEqual([])
        } else {
          // Each key restarts the pause; nothing is searched or written yet.
          expect(started).toEqual([{ id: 'debounce', input: { text: event.text } }])
          expect(written).toEqual([])
          expect(selectPhase(s)).toBe('typing')
        }
      }
      if (event.type === 'xstate.done.actor.debounce') {
        expect(s.context.term).toBe(before.context.text.trim())
        expect(written).toEqual([{ href: searchHref(s.context.term), replace: true }])
      }
      if (event.type === 'search.urlChanged') {
        expect(written).toEqual([])
        expect(s.context.text).toBe(event.q)
      }
      if (event.type === 'search.trend' || event.type === 'search.hashtag') {
        expect(s.context.text).toBe(`#${event.hashtag as string}`)
        expect(s.context.tab).toBe('posts')
        expect(written).toEqual([{ href: `/search?q=%23${event.hashtag as string}`, replace: false }])
      }
      // Whatever started a search: one call for the open tab and the term, unless the users query is too short.
      if (s.matches({ query: { searching: 'loading' } }) && !before.matches({ query: { searching: 'failed' } }) && started.length > 0) {
        expect(started).toEqual([{ id: 'search', input: { tab: s.context.tab, term: s.context.term, cursor: null } }])
        // The old results are gone, and the old rows' Follow actors with them.
        expect(s.context.entries.length + s.context.users.length + s.context.hashtags.length).toBe(0)
        for (const row of before.context.users) if (row.follow) expect(row.follow.getSnapshot().status).toBe('stopped')
      }
      if (selectPhase(s) === 'tooShort') {
        expect(s.context.tab).toBe('users')
        expect(started.filter((c) => c.id === 'search')).toEqual([])
      }
      if (event.type === 'search.retry') expect(started).toEqual([{ id: 'search', input: { tab: s.context.tab, term: s.context.term, cursor: null } }])
      if (event.type === 'search.more') {
        expect(started).toEqual([{ id: 'searchMore', input: { tab: s.context.tab, term: s.context.term, cursor: before.context.cursor } }])
        expect(s.hasTag('busy')).toBe(true)
      }
      if (event.type === 'xstate.done.actor.search' || event.type === 'xstate.done.actor.searchMore') {
        const output = event.output as SearchResults
        if (output.tab === 'posts') {
          for (const post of output.posts) expect(posts.getSnapshot().context.entities[post.id]).toMatchObject({ id: post.id })
          const expected = [...new Set([...idsOf(before.context.entries), ...output.posts.map((p: Post) => p.id)])]
          expect(idsOf(s.context.entries)).toEqual(expected)
        }
        if (output.tab === 'users') {
          expect(userIds(s)).toEqual([...new Set([...userIds(before), ...output.users.map((u) => u.id)])])
          for (const row of s.context.users) {
            if (row.user.id === viewerId) expect(row.follow).toBeNull()
            else expect(row.follow?.getSnapshot().context.following).toBe(row.user.isFollowing)
          }
        }
        if (output.tab === 'hashtags') expect(s.context.hashtags).toEqual(output.hashtags)
        const n = output.tab === 'posts' ? output.posts.length : output.tab === 'users' ? output.users.length : output.hashtags.length
        if (event.type === 'xstate.done.actor.search' && n === 0) expect(selectPhase(s)).toBe('empty')
        else expect(selectPhase(s)).toBe('loaded')
        expect(selectCanLoadMore(s)).toBe(output.nextCursor !== null)
        expect(s.context.cursor).toBe(output.nextCursor)
      }
      if (event.type === 'xstate.error.actor.search') {
        expect(selectPhase(s)).toBe('failed')
        expect(s.context.error).toBe(offline.message)
      }
      if (event.type === 'xstate.error.actor.searchMore') {
        // What was shown stays; Try again asks for the same page.
        expect(s.context.error).toBe(down.message)
        expect(idsOf(s.context.entries)).toEqual(idsOf(before.context.entries))
        expect(userIds(s)).toEqual(userIds(before))
        expect(selectCanLoadMore(s)).toBe(true)
      }
      if (event.type === 'post.deleted') expect(idsOf(s.context.entries)).not.toContain('p1')
      if (event.type === 'author.muted') expect(idsOf(s.context.entries)).not.toContain('p2')
    }
    actor.stop()
    posts.stop()
  })
})

describe('search machine coverage', () => {
  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })
})

describe('search rows', () => {
  it("a user row's Follow works on its own and says 'Following user'", async () => {
    const rowCalls = new Calls()
    const calls = new Calls()
    const posts = createActor(postsMachine).start()
    const machine = searchMachine.provide({
      actors: {
        search: calls.invoked(),
        debounce: calls.actor('debounce'),
        discover: panels,
        watchPosts: fromCallback(() => {}),
        follow: followMachine.provide({ actors: { setFollow: rowCalls.actor('setFollow') } }),
      },
      actions: { writeUrl: () => {} },
    })
    const actor = withToasts(createActor(machine, { input: { posts, viewerId, q: 'cal' } })).start()
    await perform(actor, calls, { type: 'search.tab', tab: 'users' })
    await perform(actor, calls, {
      type: 'xstate.done.actor.search',
      output: { tab: 'users', users: [{ ...annUser, isFollowing: false }], nextCursor: null },
    })
    const row = actor.getSnapshot().context.users[0]
    row?.follow?.send({ type: 'follow.toggle' })
    expect(rowCalls.started).toEqual([{ id: 'setFollow', input: { userId: annUser.id, follow: true } }])
    // A private account answers with a request: the row says Requested.
    rowCalls.resolve('setFollow', { following: false, requested: true, followers: 3 })
    await perform(actor, calls, { type: 'noop' })
    expect(row?.follow?.getSnapshot().context.requested).toBe(true)
    expect(shownToasts().map((t) => t.message)).toContain('Follow request sent')
    actor.stop()
    posts.stop()
  })
})
