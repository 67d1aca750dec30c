import { describe, expect, it } from 'vitest'
import { createActor, setup, spawnChild, type ActorRefFrom } from 'xstate'
import { accountDeletionMachine } from '../../src/machines/account-deletion/account-deletion.machine'
import { ACCOUNT_DELETING } from '../../src/machines/account-deletion/account-deletion.rules'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { accepted, accountDeletionModel, failureText, refused, withoutCode } from './models/account-deletion.model'
import { Calls } from './support/controlled-actors'
import { robin, storedRobin } from './support/fixtures'
import { installLocalStorage } from './support/memory-storage'
import { describeWalks, perform } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The Delete account dialog. What the member sees: the dialog (open or not), the busy button, the error line, the
// toasts (the real toast store), and, once the server accepted, the session ended. The events are the model's
// (./models/account-deletion.model.ts), shared with `npm run paths -- account-deletion`.

describeWalks('account-deletion machine', accountDeletionModel, async ({ walk, inspect, replay }) => {
  const input = walk.options().input as { username: string; twoFactorEnabled: boolean }
  const calls = new Calls()
  const machine = accountDeletionMachine.provide({ actors: { deleteAccount: calls.actor('deleteAccount') } })
  const actor = withToasts(createActor(machine, { input, inspect })).start()
  for await (const { event, before, snapshot, toastsBefore } of replay(actor, { calls })) {
    expect(snapshot.hasTag('dialog')).toBe(snapshot.matches('open'))
    expect(snapshot.hasTag('busy')).toBe(snapshot.matches({ open: 'deleting' }))
    if (snapshot.hasTag('busy')) expect(snapshot.can({ type: 'deletion.close' })).toBe(false)

    const toasts = shownToasts()
    if (event === refused || (event === withoutCode && input.twoFactorEnabled)) {
      // The rules refuse it: nothing is sent, nothing changes.
      expect(snapshot.value).toEqual(before.value)
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

describe('account-deletion machine', () => {
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
