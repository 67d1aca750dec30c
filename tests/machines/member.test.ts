import { describe, expect, it } from 'vitest'
import { createActor, createMachine, type AnyEventObject } from 'xstate'
import { memberMachine, type Told } from '../../src/machines/member/member.machine'
import { idle, memberModel } from './models/member.model'
import { Calls } from './support/controlled-actors'
import { Coverage, perform, walkPaths } from './support/model'

// The member actor's later region: what loads when; the conversation list, the composer and the share actor spawned
// once their code is there (the list told whether the socket is up, the composer given the post cache); what they
// were told before that handed over as they start, the latest for each, and passed straight on after; a failed load
// asked for again; the socket's status passed up to the app.

const coverage = new Coverage(memberMachine)

describe.each(memberModel.walks.map((walk) => [walk.name || 'member', walk] as const))('member: %s', (_name, walk) => {
  const paths = walkPaths(memberModel, walk)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_title, path) => {
    const calls = new Calls()
    const toldApp: string[] = []
    const inputs: Record<string, unknown[]> = { conversations: [], composer: [], share: [] }
    const received: Record<string, string[]> = { composer: [], share: [] }
    /** A later actor as spawned: records the input it was started with and every event it hears. */
    const standIn = (id: string) =>
      createMachine({
        id,
        context: ({ input }) => (inputs[id]!.push(input), {}),
        on: { '*': { actions: ({ event }) => void received[id]?.push(JSON.stringify(event)) } },
      })
    const later = { conversations: standIn('conversations'), composer: standIn('composer'), share: standIn('share') }
    const machine = memberMachine.provide({
      actors: {
        posts: idle,
        notifications: idle,
        realtime: idle,
        firstScreen: calls.actor('firstScreen'),
        loadLater: calls.actor('loadLater'),
      } as never,
      actions: { tellApp: ({ event }) => void toldApp.push((event as AnyEventObject).type) },
    })
    const actor = createActor(machine, { input: { userId: 'user-ann', token: 'token-ann' }, inspect: coverage.inspector }).start()
    coverage.see(actor.getSnapshot())
    /** What each later actor should have heard by now: the latest event told before it ran, then everything after. */
    const expected: Record<string, string[]> = { composer: [], share: [] }
    const waiting: Record<string, string | undefined> = {}
    for (const step of path.steps) {
      const event = step.event.type === 'xstate.done.actor.loadLater' ? { ...step.event, output: later } : step.event
      const toldBefore = toldApp.length
      const wasReady = actor.getSnapshot().matches('laterReady')
      await perform(actor, calls, event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context).toEqual(step.state.context)
      const ready = snapshot.matches('laterReady')
      // The later actors run exactly once their code has loaded; nothing waits for them after that.
      for (const id of ['conversations', 'composer', 'share']) expect(Boolean(snapshot.children[id])).toBe(ready)
      if (ready) expect(snapshot.context.waiting).toEqual({})
      if (event.type === 'member.tell') {
        const told = event as unknown as Told
        if (wasReady) expected[told.to]!.push(JSON.stringify(told.event))
        else waiting[told.to] = JSON.stringify(told.event)
      }
      if (event.type === 'xstate.done.actor.loadLater') {
        expect(inputs).toEqual({
          conversations: [{ userId: 'user-ann', connected: snapshot.context.connected }],
          composer: [{ posts: snapshot.children.posts }],
          share: [{}],
        })
        for (const id of ['composer', 'share']) if (waiting[id]) expected[id]!.push(waiting[id]!)
      }
      expect(received).toEqual(expected)
      expect(calls.isRunning('loadLater')).toBe(snapshot.matches('laterLoading'))
      if (event.type.startsWith('realtime.')) expect(toldApp.slice(toldBefore)).toEqual([event.type])
    }
    actor.stop()
  })
})

describe('member', () => {
  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })
})
