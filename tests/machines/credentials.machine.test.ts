import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { SESSION_STORAGE_KEY } from '../../src/machines/session/session.storage'
import {
  loginForm,
  loginModel,
  newPair,
  notUnlocked,
  registerForm,
  registerModel,
  startSession,
  unlocked,
} from './models/credentials.model'
import { Calls } from './support/controlled-actors'
import { installLocalStorage, type MemoryStorage } from './support/memory-storage'
import { Coverage, perform, walkPaths } from './support/model'
import { robin, robinAuth } from './support/fixtures'

// Login and register: idle -> (their key step and the server call) -> succeeded | failed. Each path is replayed with a
// real session actor on the other end, so "success" is checked where the member feels it: signed in, stored, sent
// home, and the keys actor told how the message key ended (ready, or why not; never blocking the sign-in). The events
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

  function start() {
    const calls = new Calls()
    const session = startSession()
    const navigateHome = vi.fn()
    const reportKeys = vi.fn()
    const actors = Object.fromEntries(c.actors.map((id) => [id, calls.actor(id)]))
    const machine = c.machine.provide({ actors, actions: { navigateHome, reportKeys } })
    return { calls, session, navigateHome, reportKeys, machine }
  }

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_name, path) => {
    const { calls, session, navigateHome, reportKeys, machine } = start()
    const actor = createActor(machine, { input: { session }, inspect: coverage.inspector }).start()
    coverage.see(actor.getSnapshot())
    let keyStep: unknown

    for (const step of path.steps) {
      await perform(actor, calls, step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context.error).toEqual(step.state.context.error)
      expect(snapshot.hasTag('busy')).toBe(c.busy.includes(snapshot.value as string))

      const started = c.starts(step.event)
      if (started) expect(calls.started.at(-1)).toEqual(started)
      if (step.event.type === c.submit.type) expect(snapshot.context.error).toBeNull()
      if (/(prepareKeys|makeKeys)$/.test(step.event.type)) keyStep = step.event

      if (snapshot.value === 'secondFactor') {
        // The password's proof and the ticket wait in memory for the code; nothing is stored, nobody is signed in.
        expect(snapshot.context).toMatchObject({ ticket: 'ticket-1', proof: expect.anything() as unknown })
        expect(session.getSnapshot().hasTag('authenticated')).toBe(false)
        expect(JSON.parse(storage.getItem(SESSION_STORAGE_KEY) ?? '{}').token ?? null).toBeNull()
      }
      if (step.event.type === 'login.back') {
        // Back to the password form: the password, its proof and the ticket are forgotten.
        expect(snapshot.context).toMatchObject({ fields: null, proof: null, ticket: null, error: null })
      }
      if (snapshot.value === 'failed') {
        // What the member reads under the form: the server's words, or ours when the server could not be reached.
        expect(snapshot.context.error).toBe(c.failureText(step.event.error))
        expect(session.getSnapshot().hasTag('authenticated')).toBe(false)
        expect(navigateHome).not.toHaveBeenCalled()
        expect(reportKeys).not.toHaveBeenCalled()
        // The password is not kept once the server refused.
        expect(JSON.stringify(snapshot.context)).not.toContain('Sparrow2026')
      }
      if (snapshot.value === 'keeping') {
        // The keys actor knows how the key ended; the session waits until the key is in the store, so a reload the
        // moment the app moves on still finds it.
        expect(reportKeys).toHaveBeenCalledTimes(1)
        expect(session.getSnapshot().hasTag('authenticated')).toBe(false)
        expect(navigateHome).not.toHaveBeenCalled()
      }
      if (snapshot.value === 'succeeded') {
        expect(session.getSnapshot().hasTag('authenticated')).toBe(true)
        expect(session.getSnapshot().context.user).toEqual(robin)
        expect(JSON.parse(storage.getItem(SESSION_STORAGE_KEY) ?? '{}')).toMatchObject({
          token: robinAuth.token,
          privateKey: robinAuth.privateKey,
          isAuthenticated: true,
        })
        expect(navigateHome).toHaveBeenCalledTimes(1)
        expect(JSON.stringify(snapshot.context)).not.toContain('Sparrow2026')
        // The keys actor hears how the key ended, whatever it was: the member signed in all the same.
        expect(reportKeys).toHaveBeenCalledTimes(1)
        const [, sent] = reportKeys.mock.calls[0] as [unknown, { userId: string; outcome: { status: string } }]
        expect(sent.userId).toBe(robin.id)
        expect(sent.outcome.status).toBe(expectedKeyStatus(keyStep))
      }
    }
    actor.stop()
    session.stop()
  })

  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })

  it(`tells the session with ${c.successEvent}`, async () => {
    const { calls, session, machine } = start()
    const received: string[] = []
    const actor = createActor(machine, {
      input: { session },
      inspect: (e) => {
        if (e.type === '@xstate.event' && e.actorRef === session) received.push(e.event.type)
      },
    }).start()
    await perform(actor, calls, c.submit)
    for (const event of c.events.filter((e) => /^xstate\.done/.test(e.type as string))) {
      const id = (event.type as string).replace('xstate.done.actor.', '')
      if (calls.isRunning(id)) await perform(actor, calls, event)
    }
    expect(actor.getSnapshot().value).toBe('succeeded')
    expect(received).toContain(c.successEvent)
    actor.stop()
    session.stop()
  })
})

/** The key status the keys actor must hear after the form's key step. */
function expectedKeyStatus(keyEvent: unknown): string {
  const event = keyEvent as { type: string; output?: unknown } | undefined
  if (event?.output === unlocked || event?.output === newPair) return 'ready'
  if (event?.output === notUnlocked) return 'unavailable'
  return 'unavailable'
}
