import { describe, expect, it } from 'vitest'
import { createActor, setup, spawnChild, type ActorRefFrom } from 'xstate'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { installLocalStorage } from './support/memory-storage'
import { robin, storedRobin } from './support/fixtures'
import { changePasswordMachine, PASSWORD_CHANGED } from '../../src/machines/change-password/change-password.machine'
import { shownToasts, withToasts } from './support/toasts'
import { changePasswordModel, failureText, preparedWithKey } from './models/change-password.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, perform } from './support/model'

// The Change Password dialog. What the member sees is the dialog (open or not), the busy button, the error line, and the
// toasts, which come from the real toast store. The events are the model's (./models/change-password.model.ts), shared
// with `npm run paths -- change-password`.

describeWalks('change-password machine', changePasswordModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = changePasswordMachine.provide({
    actors: { prepareChange: calls.actor('prepareChange'), changePassword: calls.actor('changePassword') },
  })
  const actor = withToasts(createActor(machine, { inspect })).start()

  for await (const { event, snapshot, toastsBefore } of replay(actor, { calls })) {
    const dialogOpen = snapshot.hasTag('dialog')
    expect(dialogOpen).toBe(snapshot.matches('open'))
    expect(snapshot.hasTag('busy')).toBe(snapshot.matches({ open: 'submitting' }) || snapshot.matches({ open: 'preparing' }))
    // While the change is in flight, Escape/backdrop cannot close the dialog.
    if (snapshot.hasTag('busy')) expect(snapshot.can({ type: 'password.close' })).toBe(false)

    const toasts = shownToasts()
    if (event.type === 'xstate.done.actor.changePassword') {
      expect(dialogOpen).toBe(false)
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: PASSWORD_CHANGED })
    } else if (event.type === 'xstate.error.actor.changePassword' || event.type === 'xstate.error.actor.prepareChange') {
      const text = failureText.get(event.error)
      expect(dialogOpen).toBe(true)
      expect(snapshot.context.error).toBe(text)
      expect(toasts.at(-1)).toMatchObject({ type: 'error', message: text })
    } else {
      expect(toasts.length, 'no toast without an answer from the server').toBe(toastsBefore)
    }
    if (event.type === 'password.submit') {
      // No session in this system: no name to look the settings up by, no wrapped key to re-wrap.
      expect(calls.started.at(-1)).toEqual({
        id: 'prepareChange',
        input: { username: '', wrapped: null, currentPassword: 'Sparrow2026', newPassword: 'Nightingale2027' },
      })
      expect(snapshot.context.error).toBeNull()
    }
    if (event.type === 'xstate.done.actor.prepareChange') {
      // Exactly what was prepared goes: derived secrets, never a typed password; without a key (a wrong current
      // password among the reasons) the server decides and its message is shown.
      expect(calls.started.at(-1)).toEqual({ id: 'changePassword', input: event.output })
      expect(JSON.stringify(snapshot.context)).not.toContain('Nightingale2027')
    }
    if (!snapshot.hasTag('busy')) {
      expect(snapshot.context.request).toBeNull()
      expect(snapshot.context.fields).toBeNull()
    }
  }
  actor.stop()
})

describe('change-password machine', () => {
  it("re-wraps the session's wrapped key and, once the change is saved, the session keeps the new one", async () => {
    installLocalStorage()
    const calls = new Calls()
    const dialog = changePasswordMachine.provide({
      actors: { prepareChange: calls.actor('prepareChange'), changePassword: calls.actor('changePassword') },
    })
    // The app's shape, as far as this dialog sees it: a session (systemId 'session') beside the dialog.
    const root = setup({ actors: { session: sessionMachine.provide({ actors: { checkAuth: calls.actor('checkAuth') } }), dialog } }).createMachine({
      entry: [
        spawnChild('session', { systemId: 'session', input: { stored: storedRobin } }),
        spawnChild('dialog', { id: 'dialog' }),
      ],
    })
    const app = createActor(root).start()
    const session = app.system.get('session') as ActorRefFrom<typeof sessionMachine>
    await perform(session, calls, { type: 'xstate.done.actor.checkAuth', output: robin })
    const actor = app.getSnapshot().children.dialog as ActorRefFrom<typeof changePasswordMachine>

    await perform(actor, calls, { type: 'password.open' })
    await perform(actor, calls, submit)
    expect(calls.started.at(-1)).toEqual({
      id: 'prepareChange',
      input: {
        username: robin.username,
        wrapped: storedRobin.privateKey,
        currentPassword: submit.currentPassword,
        newPassword: submit.newPassword,
      },
    })
    await perform(actor, calls, { type: 'xstate.done.actor.prepareChange', output: preparedWithKey })
    expect(session.getSnapshot().context.privateKey).toBe(storedRobin.privateKey)
    await perform(actor, calls, { type: 'xstate.done.actor.changePassword', output: 'Password changed' })
    expect(session.getSnapshot().context.privateKey).toBe('rewrapped-key')
    expect(JSON.parse(localStorage.getItem('auth-storage') ?? '{}')).toMatchObject({ privateKey: 'rewrapped-key' })
    app.stop()
  })
})

const submit = { type: 'password.submit' as const, currentPassword: 'Sparrow2026', newPassword: 'Nightingale2027' }
