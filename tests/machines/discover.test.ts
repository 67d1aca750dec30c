import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { discoverMachine } from '../../src/machines/discover/discover.machine'
import { followMachine } from '../../src/machines/follow/follow.machine'
import { FALLBACK_TRENDS } from '../../src/machines/search/search.rules'
import { discoverModel } from './models/discover.model'
import { annUser, robinUser, trends, viewerId } from './models/search.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, perform } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// Trending Now and Who to Follow, walked path by path (the model: ./models/discover.model.ts). Both ask once, when the
// actor starts; after each answer the panels show the trends (or the fixed list, silently, for none or a failure) and
// the suggestions, each with a Follow actor but the viewer's own (none after a failure).

describeWalks('discover machine', discoverModel, async ({ walk, inspect, replay }) => {
  const calls = new Calls()
  const machine = discoverMachine.provide({
    actors: { loadTrending: calls.actor('loadTrending'), loadSuggestions: calls.actor('loadSuggestions') },
  })
  const input = walk.options().input as { viewerId: string; panels?: Array<'trending' | 'suggestions'> }
  const actor = createActor(machine, { input, inspect }).start()
  // Only the panels shown are asked for.
  const asked = { both: ['loadSuggestions', 'loadTrending'], 'suggestions only': ['loadSuggestions'], 'trending only': ['loadTrending'] }
  expect(calls.started.map((c) => c.id).sort()).toEqual(asked[walk.name as keyof typeof asked])

  for await (const { event, snapshot: s } of replay(actor, {
    calls,
    context: (snapshot) => ({ trends: snapshot.context.trends, suggestions: snapshot.context.suggestions?.map((r) => r.user.id) ?? null }),
  })) {
    if (event.type === 'xstate.done.actor.loadTrending') {
      expect(s.context.trends).toEqual(
        (event.output as unknown[]).length ? trends : FALLBACK_TRENDS.map((hashtag) => ({ hashtag, count: null })),
      )
    }
    // A failure is silent: the fixed list.
    if (event.type === 'xstate.error.actor.loadTrending') expect(s.context.trends?.map((t) => t.hashtag)).toEqual([...FALLBACK_TRENDS])
    if (event.type === 'xstate.done.actor.loadSuggestions') {
      expect(s.context.suggestions?.map((r) => [r.user.id, r.follow === null])).toEqual([
        [annUser.id, false],
        [robinUser.id, true],
      ])
    }
    if (event.type === 'xstate.error.actor.loadSuggestions') expect(s.context.suggestions).toEqual([])
  }
  actor.stop()
})

describe('discover suggestions', () => {
  it("a suggestion's Follow works in place and says so", async () => {
    const calls = new Calls()
    const rowCalls = new Calls()
    const machine = discoverMachine.provide({
      actors: {
        loadTrending: calls.actor('loadTrending'),
        loadSuggestions: calls.actor('loadSuggestions'),
        follow: followMachine.provide({ actors: { setFollow: rowCalls.actor('setFollow') } }),
      },
    })
    const actor = withToasts(createActor(machine, { input: { viewerId } })).start()
    await perform(actor, calls, { type: 'xstate.done.actor.loadSuggestions', output: [{ ...annUser, isFollowing: false }] })
    const row = actor.getSnapshot().context.suggestions?.[0]
    row?.follow?.send({ type: 'follow.toggle' })
    expect(rowCalls.started).toEqual([{ id: 'setFollow', input: { userId: annUser.id, follow: true } }])
    rowCalls.resolve('setFollow', { following: true, requested: false, followers: 4 })
    await perform(actor, calls, { type: 'noop' })
    expect(row?.follow?.getSnapshot().context.following).toBe(true)
    expect(shownToasts().map((t) => t.message)).toContain('Following user')
    actor.stop()
  })
})
