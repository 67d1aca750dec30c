import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { changePasswordMachine, PASSWORD_CHANGED } from '../../src/machines/change-password/change-password.machine'
import { shownToasts, withToasts } from './support/toasts'
import { changePasswordModel, failureText } from './models/change-password.model'
import { Calls } from './support/controlled-actors'
import { Coverage, perform, walkPaths } from './support/model'

// The Change Password dialog. What the member sees is the dialog (open or not), the busy button, the error line, and the
// toasts, which come from the real toast store. The events are the model's (./models/change-password.model.ts), shared
// with `npm run paths -- change-password`.

const paths = changePasswordModel.walks.flatMap((walk) => walkPaths(changePasswordModel, walk))
const coverage = new Coverage(changePasswordMachine)

describe('change-password machine', () => {
  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_name, path) => {
    const calls = new Calls()
    const machine = changePasswordMachine.provide({ actors: { changePassword: calls.actor('changePassword') } })
    const actor = withToasts(createActor(machine, { inspect: coverage.inspector })).start()
    coverage.see(actor.getSnapshot())

    for (const step of path.steps) {
      const toastsBefore = shownToasts().length
      await perform(actor, calls, step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context).toEqual(step.state.context)

      const dialogOpen = snapshot.hasTag('dialog')
      expect(dialogOpen).toBe(snapshot.matches('open'))
      expect(snapshot.hasTag('busy')).toBe(snapshot.matches({ open: 'submitting' }))
      // While the change is in flight, Escape/backdrop cannot close the dialog.
      if (snapshot.hasTag('busy')) expect(snapshot.can({ type: 'password.close' })).toBe(false)

      const toasts = shownToasts()
      if (step.event.type === 'xstate.done.actor.changePassword') {
        expect(dialogOpen).toBe(false)
        expect(toasts.at(-1)).toMatchObject({ type: 'success', message: PASSWORD_CHANGED })
      } else if (step.event.type === 'xstate.error.actor.changePassword') {
        const text = failureText.get(step.event.error)
        expect(dialogOpen).toBe(true)
        expect(snapshot.context.error).toBe(text)
        expect(toasts.at(-1)).toMatchObject({ type: 'error', message: text })
      } else {
        expect(toasts.length, 'no toast without an answer from the server').toBe(toastsBefore)
      }
      if (step.event.type === 'password.submit') {
        expect(calls.started.at(-1)?.input).toEqual({ currentPassword: 'Sparrow2026', newPassword: 'Nightingale2027' })
        expect(snapshot.context.error).toBeNull()
      }
    }
    actor.stop()
  })

  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })
})
