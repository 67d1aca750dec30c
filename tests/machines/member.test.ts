import { describe, expect, it } from 'vitest'
import { createActor, createMachine, type AnyEventObject } from 'xstate'
import { memberMachine } from '../../src/machines/member/member.machine'
import { idle, memberModel } from './models/member.model'
import { Calls } from './support/controlled-actors'
import { Coverage, perform, walkPaths } from './support/model'

// The member actor's messaging region: what loads when, the conversation list spawned once its code is
// there and told whether the socket is up, a failed load asked for again, the socket's status passed up to the app.

const coverage = new Coverage(memberMachine)

describe.each(memberModel.walks.map((walk) => [walk.name || 'member', walk] as const))('member: %s', (_name, walk) => {
  const paths = walkPaths(memberModel, walk)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_title, path) => {
    const calls = new Calls()
    const toldApp: string[] = []
    const listInputs: unknown[] = []
    /** The conversation list as spawned: records the input it was started with. */
    const list = createMachine({ id: 'conversations', context: ({ input }) => (listInputs.push(input), {}) })
    const machine = memberMachine.provide({
      actors: {
        posts: idle,
        composer: idle,
        notifications: idle,
        share: idle,
        realtime: idle,
        firstScreen: calls.actor('firstScreen'),
        loadMessaging: calls.actor('loadMessaging'),
      } as never,
      actions: { tellApp: ({ event }) => void toldApp.push((event as AnyEventObject).type) },
    })
    const actor = createActor(machine, { input: { userId: 'user-ann', token: 'token-ann' }, inspect: coverage.inspector }).start()
    coverage.see(actor.getSnapshot())
    for (const step of path.steps) {
      const event = step.event.type === 'xstate.done.actor.loadMessaging' ? { ...step.event, output: list } : step.event
      const toldBefore = toldApp.length
      await perform(actor, calls, event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context).toEqual(step.state.context)
      // The list runs exactly once its code has loaded, started knowing whether the socket is up.
      expect(Boolean(snapshot.children.conversations)).toBe(snapshot.matches('messagingReady'))
      if (event.type === 'xstate.done.actor.loadMessaging') {
        expect(listInputs).toEqual([{ userId: 'user-ann', connected: snapshot.context.connected }])
      }
      expect(calls.isRunning('loadMessaging')).toBe(snapshot.matches('messagingLoading'))
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
