import { describe, expect, it } from 'vitest'
import { createActor, setup, spawnChild, type ActorRefFrom } from 'xstate'
import { accountDeletionMachine } from '../../src/machines/account-deletion/account-deletion.machine'
import { ACCOUNT_DELETING } from '../../src/machines/account-deletion/account-deletion.rules'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { accepted, accountDeletionModel, failureText, refused, withoutCode } from './models/account-deletion.model'
import { Calls } from './support/controlled-actors'
import { robin, storedRobin } from './support/fixtures'
import { installLocalStorage } from './support/memory-storage'
import { Coverage, perform, walkPaths } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The Delete account dialog. What the member sees: the dialog (open or not), the busy button, the error line, the
// toasts (the real toast store), and, once the server accepted, the session ended. The events are the model's
// (./models/account-deletion.model.ts), shared with `npm run paths -- account-deletion`.

const coverage = new Coverage(accountDeletionMachine)

describe('account-deletion machine', () => {
  for (const walk of accountDeletionModel.walks) {
    const input = walk.options().input as { username: string; twoFactorEnabled: boolean }
    const paths = walkPaths(accountDeletionModel, walk)
    describe(walk.name, () => {
      it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_name, path) => {
        const calls = new Calls()
        const machine = accountDeletionMachine.provide({ actors: { deleteAccount: calls.actor('deleteAccount') } })
        const actor = withToasts(createActor(machine, { input, inspect: coverage.inspector })).start()
        coverage.see(actor.getSnapshot())
        for (const step of path.steps) {
          const toastsBefore = shownToasts().length
          const stateBefore = actor.getSnapshot().value
          await perform(actor, calls, step.event)
          const snapshot = actor.getSnapshot()
          coverage.see(snapshot)
          expect(snapshot.value).toEqual(step.state.value)
          expect(snapshot.context).toEqual(step.state.context)
          expect(snapshot.hasTag('dialog')).toBe(snapshot.matches('open'))
          expect(snapshot.hasTag('busy')).toBe(snapshot.matches({ open: 'deleting' }))
          if (snapshot.hasTag('busy')) expect(snapshot.can({ type: 'deletion.close' })).toBe(false)

          const event = step.event
          const toasts = shownToasts()
          if (event === refused || (event === withoutCode && input.twoFactorEnabled)) {
            // The rules refuse it: nothing is sent, nothing changes.
            expect(snapshot.value).toEqual(stateBefore)
            expect(calls.started.filter((c) => c.id === 'deleteAccount')).toHaveLength(0)
          } else if (event === accepted || event === withoutCode) {
            expect(calls.started.at(-1)).toEqual({
              id: 'deleteAccount',
              input: {
                username: 'robin',
                password: 'Sparrow2026',
                // The code goes only when a second factor is on.
                code: input.twoFactorEnabled ? event.code : '',
                confirm: event.confirm,
              },
            })
          } else if (event.type === 'xstate.done.actor.deleteAccount') {
            expect(snapshot.status).toBe('done')
            expect(toasts.at(-1)).toMatchObject({ type: 'success', message: ACCOUNT_DELETING })
          } else if (event.type === 'xstate.error.actor.deleteAccount') {
            const text = failureText.get(event.error)
            expect(snapshot.hasTag('dialog')).toBe(true)
            expect(snapshot.context.error).toBe(text)
            expect(toasts.at(-1)).toMatchObject({ type: 'error', message: text })
          } else {
            expect(toasts.length, 'no toast without an answer from the server').toBe(toastsBefore)
          }
          // The typed password is held only while the deletion runs.
          if (!snapshot.hasTag('busy')) expect(snapshot.context.fields).toBeNull()
          calls.started.length = 0
        }
        actor.stop()
      })
    })
  }

  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })

  it('ends the session once the server accepted', async () => {
    installLocalStorage()
    const calls = new Calls()
    const dialog = accountDeletionMachine.provide({ actors: { deleteAccount: calls.actor('deleteAccount') } })
    const root = setup({
      actors: { session: sessionMachine.provide({ actors: { checkAuth: calls.actor('checkAuth') } }), dialog },
    }).createMachine({
      entry: [
        spawnChild('session', { systemId: 'session', input: { stored: storedRobin } }),
        spawnChild('dialog', { id: 'dialog', input: { username: robin.username, twoFactorEnabled: false } }),
      ],
    })
    const app = createActor(root).start()
    const session = app.system.get('session') as ActorRefFrom<typeof sessionMachine>
    await perform(session, calls, { type: 'xstate.done.actor.checkAuth', output: robin })
    expect(session.getSnapshot().matches('authenticated')).toBe(true)
    const actor = app.getSnapshot().children.dialog as ActorRefFrom<typeof accountDeletionMachine>
    await perform(actor, calls, { type: 'deletion.open' })
    await perform(actor, calls, { type: 'deletion.submit', password: 'Sparrow2026', code: '', confirm: robin.username })
    await perform(actor, calls, { type: 'xstate.done.actor.deleteAccount', output: 'Your account is being deleted' })
    expect(session.getSnapshot().matches('unauthenticated')).toBe(true)
    expect(JSON.parse(localStorage.getItem('auth-storage') ?? '{}')).not.toMatchObject({ token: expect.any(String) })
    app.stop()
  })
})
