import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { SESSION_STORAGE_KEY } from '../../src/machines/session/session.storage'
import { loginForm, loginModel, networkError, registerForm, registerModel, startSession } from './models/credentials.model'
import { Calls } from './support/controlled-actors'
import { installLocalStorage, type MemoryStorage } from './support/memory-storage'
import { Coverage, perform, walkPaths } from './support/model'
import { robin, robinAuth } from './support/fixtures'

// Login and register share a shape: idle -> submitting -> succeeded | failed. Each path is replayed with a real session
// actor on the other end, so "success" is checked where the member feels it: signed in, stored, sent home. The events
// are the models' (./models/credentials.model.ts), shared with `npm run paths -- login` / `-- register`.

let storage: MemoryStorage
beforeEach(() => {
  storage = installLocalStorage()
})

const cases = [
  { ...loginForm, model: loginModel },
  { ...registerForm, model: registerModel },
]

describe.each(cases)('$name machine', (c) => {
  const paths = c.model.walks.flatMap((walk) => walkPaths(c.model, walk))
  const coverage = new Coverage(c.machine)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_name, path) => {
    const calls = new Calls()
    const session = startSession()
    const navigateHome = vi.fn()
    const machine = c.machine.provide({ actors: { [c.callId]: calls.actor(c.callId) }, actions: { navigateHome } })
    const actor = createActor(machine, { input: { session }, inspect: coverage.inspector }).start()
    coverage.see(actor.getSnapshot())

    for (const step of path.steps) {
      await perform(actor, calls, step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context.error).toEqual(step.state.context.error)
      expect(snapshot.hasTag('busy')).toBe(snapshot.value === 'submitting')

      if (step.event.type === c.submit.type) {
        // The form's values go to the server as typed.
        expect(calls.started.at(-1)).toEqual({ id: c.callId, input: c.expectedInput })
        expect(snapshot.context.error).toBeNull()
      }
      if (snapshot.value === 'failed') {
        // What the member reads under the form: the server's words, or ours when the server could not be reached.
        const error = step.event.error === networkError ? networkError.message : c.serverError.message
        expect(snapshot.context.error).toBe(error)
        expect(session.getSnapshot().hasTag('authenticated')).toBe(false)
        expect(navigateHome).not.toHaveBeenCalled()
      }
      if (snapshot.value === 'succeeded') {
        expect(session.getSnapshot().hasTag('authenticated')).toBe(true)
        expect(session.getSnapshot().context.user).toEqual(robin)
        expect(JSON.parse(storage.getItem(SESSION_STORAGE_KEY) ?? '{}')).toMatchObject({
          token: robinAuth.token,
          isAuthenticated: true,
        })
        expect(navigateHome).toHaveBeenCalledTimes(1)
      }
    }
    actor.stop()
    session.stop()
  })

  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })

  it(`tells the session with ${c.successEvent}`, async () => {
    const calls = new Calls()
    const received: string[] = []
    const session = startSession()
    session.subscribe({ next: () => {} })
    const machine = c.machine.provide({
      actors: { [c.callId]: calls.actor(c.callId) },
      actions: { navigateHome: () => {} },
    })
    const actor = createActor(machine, {
      input: { session },
      inspect: (e) => {
        if (e.type === '@xstate.event' && e.actorRef === session) received.push(e.event.type)
      },
    }).start()
    await perform(actor, calls, c.submit)
    await perform(actor, calls, { type: `xstate.done.actor.${c.callId}`, output: robinAuth })
    expect(received).toContain(c.successEvent)
    actor.stop()
    session.stop()
  })
})
