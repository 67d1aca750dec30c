import { describe, expect, it } from 'vitest'
import { createActor, createMachine, spawnChild } from 'xstate'
import { pollMachine, type PollRef } from '../../src/machines/poll/poll.machine'
import type { PostsRef } from '../../src/machines/posts/posts.machine'
import { postsMachine } from '../../src/machines/posts/posts.machine'
import { choose, FINAL_RESULTS, leaders, percentOf, showsResults, timeLeft, votersText } from '../../src/machines/poll/poll.rules'
import { counted, pollModel, refusalText } from './models/poll.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, settle } from './support/model'
import { makePost } from './support/post-fixtures'
import { shownToasts, withToasts } from './support/toasts'

// A poll's vote form, walked path by path (the model: ./models/poll.model.ts). After each step: the choices (one on a
// single-choice poll, a toggle on a multiple-choice one), Vote only with a choice, the request carrying exactly the
// choices, and a refusal said inline and as a toast with the choices kept.

describeWalks('poll machine', pollModel, async ({ walk, inspect, replay }) => {
  const { multiple } = walk.input
  const calls = new Calls()
  const machine = pollMachine.provide({ actors: { vote: calls.actor('vote') } })
  const actor = withToasts(createActor(machine, { input: walk.input, inspect })).start()
  for await (const { event, before, snapshot, toastsBefore } of replay(actor, { calls })) {
    const toasts = shownToasts().slice(toastsBefore)
    expect(snapshot.hasTag('busy')).toBe(snapshot.matches('voting'))
    if (event.type === 'poll.choose') {
      expect(snapshot.context.choices).toEqual(choose(before.context.choices, String(event.optionId), multiple))
      expect(snapshot.context.error).toBeNull()
    }
    if (event.type === 'poll.submit') {
      if (before.context.choices.length === 0) expect(snapshot.matches('choosing')).toBe(true)
      else expect(calls.started.at(-1)?.input).toEqual({ postId: 'p1', choices: before.context.choices })
    }
    if (event.type === 'xstate.done.actor.vote') expect(snapshot.status).toBe('done')
    if (event.type === 'xstate.error.actor.vote') {
      const text = refusalText.get(event.error)
      expect(snapshot.context.error).toBe(text)
      expect(snapshot.context.choices).toEqual(before.context.choices)
      expect(toasts.at(-1)).toMatchObject({ type: 'error', message: text })
    } else {
      expect(toasts).toEqual([])
    }
  }
  actor.stop()
})

describe('poll machine beside the post cache', () => {
  it('stores the counted poll on the post, so every card of it shows the results', async () => {
    const calls = new Calls()
    const post = makePost('p1', { poll: { ...counted, votersCount: 3, ownVotes: [] } })
    const parent = createMachine({
      entry: [
        spawnChild(postsMachine, { id: 'posts', systemId: 'posts' }),
        spawnChild(pollMachine.provide({ actors: { vote: calls.actor('vote') } }), { id: 'poll', input: { postId: 'p1', multiple: false } }),
      ],
    })
    const root = withToasts(createActor(parent)).start()
    const posts = root.getSnapshot().children.posts as PostsRef
    const poll = root.getSnapshot().children.poll as PollRef
    posts.send({ type: 'posts.received', posts: [post] })
    poll.send({ type: 'poll.choose', optionId: 'o1' })
    poll.send({ type: 'poll.submit' })
    calls.resolve('vote', counted)
    await settle()
    expect(posts.getSnapshot().context.entities.p1?.poll).toEqual(counted)
    root.stop()
  })
})

describe('poll rules', () => {
  const now = Date.parse('2030-01-01T00:00:00.000Z')
  const at = (ms: number) => new Date(now + ms).toISOString()
  it.each([
    [-1, FINAL_RESULTS],
    [0, FINAL_RESULTS],
    [30_000, 'Less than a minute left'],
    [60_000, '1 minute left'],
    [59 * 60_000, '59 minutes left'],
    [60 * 60_000, '1 hour left'],
    [23 * 3_600_000 + 59 * 60_000, '23 hours left'],
    [7 * 86_400_000, '7 days left'],
  ])('%i ms before closing reads %j', (ms, text) => {
    expect(timeLeft(at(ms), now)).toBe(text)
  })

  it('shows results after a vote or once closed, by the clock', () => {
    const open = { closesAt: at(60_000), ownVotes: [] }
    expect(showsResults(open, now)).toBe(false)
    expect(showsResults({ ...open, ownVotes: ['o1'] }, now)).toBe(true)
    expect(showsResults(open, now + 60_000)).toBe(true)
  })

  it('gives shares of the votes (single choice) or of the voters (multiple choice), as Mastodon', () => {
    const options = [
      { id: 'a', text: 'a', votes: 2 },
      { id: 'b', text: 'b', votes: 1 },
    ]
    expect(percentOf({ options, multiple: false, votersCount: 3 }, 2)).toBe(67)
    expect(percentOf({ options, multiple: true, votersCount: 2 }, 2)).toBe(100)
    expect(percentOf({ options: [], multiple: false, votersCount: 0 }, 0)).toBe(0)
    expect([...leaders({ options })]).toEqual(['a'])
    expect([...leaders({ options: options.map((o) => ({ ...o, votes: 0 })) })]).toEqual([])
  })

  it('says who voted and picks like radio buttons or checkboxes', () => {
    expect(votersText(1)).toBe('1 person')
    expect(votersText(12)).toBe('12 people')
    expect(choose(['a'], 'b', false)).toEqual(['b'])
    expect(choose(['a'], 'b', true)).toEqual(['a', 'b'])
    expect(choose(['a', 'b'], 'a', true)).toEqual(['b'])
  })
})
