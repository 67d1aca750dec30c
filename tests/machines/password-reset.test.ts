import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { forgotPasswordMachine } from '../../src/machines/password-reset/forgot-password.machine'
import { RESET_TEXTS } from '../../src/machines/password-reset/password-reset.rules'
import { RECOVERY_KEY_REMOVED, RECOVERY_KEY_SAVED, recoveryKeyMachine, recoveryKeyText } from '../../src/machines/password-reset/recovery-key.machine'
import { resetPasswordMachine } from '../../src/machines/password-reset/reset-password.machine'
import {
  FORGOT_ANSWER,
  forgotPasswordModel,
  NEW_PASSWORD,
  PASSWORD,
  RECOVERY_KEY,
  recoveryFailureText,
  recoveryKeyModel,
  resetPasswordModel,
  wrongKey,
} from './models/password-reset.model'
import { Calls } from './support/controlled-actors'
import { Coverage, perform, walkPaths } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The password reset's actors, walked along their models (./models/password-reset.model.ts). What the member sees:
// the step of the screen or dialog, the busy buttons, the error line, the toasts; and what goes to the calls.

describe('forgot-password machine', () => {
  const paths = forgotPasswordModel.walks.flatMap((walk) => walkPaths(forgotPasswordModel, walk))
  const coverage = new Coverage(forgotPasswordMachine)
  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_name, path) => {
    const calls = new Calls()
    const actor = createActor(forgotPasswordMachine.provide({ actors: { forgot: calls.actor('forgot') } }), {
      inspect: coverage.inspector,
    }).start()
    coverage.see(actor.getSnapshot())
    for (const step of path.steps) {
      await perform(actor, calls, step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context).toEqual(step.state.context)
      expect(snapshot.hasTag('busy')).toBe(snapshot.matches('sending'))
      if (snapshot.matches('sending')) expect(calls.started.at(-1)).toEqual({ id: 'forgot', input: 'robin' })
      if (step.event.type === 'xstate.done.actor.forgot') expect(snapshot.context.message).toBe(FORGOT_ANSWER)
      if (step.event.type === 'xstate.error.actor.forgot') {
        expect(snapshot.matches('editing')).toBe(true)
        expect(snapshot.context.error).toBe(
          (step.event.error as { fromServer?: boolean }).fromServer ? (step.event.error as Error).message : RESET_TEXTS.forgotFailed,
        )
      }
    }
    actor.stop()
  })
  it('paths enter every state and take every transition', () => coverage.expectComplete())
})

describe('reset-password machine', () => {
  const paths = resetPasswordModel.walks.flatMap((walk) => walkPaths(resetPasswordModel, walk))
  const coverage = new Coverage(resetPasswordMachine)
  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_name, path) => {
    const calls = new Calls()
    const machine = resetPasswordMachine.provide({
      actors: { check: calls.actor('check'), checkRecoveryKey: calls.actor('checkRecoveryKey'), reset: calls.actor('reset') },
    })
    const actor = createActor(machine, { input: { token: 'the-token' }, inspect: coverage.inspector }).start()
    coverage.see(actor.getSnapshot())
    expect(calls.started[0]).toEqual({ id: 'check', input: 'the-token' })
    for (const step of path.steps) {
      await perform(actor, calls, step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context).toEqual(step.state.context)
      expect(snapshot.hasTag('busy')).toBe((['checking', 'verifyingKey', 'resetting'] as const).some((s) => snapshot.matches(s)))
      // The new password is never kept in the actor's memory: it goes into the reset call only.
      expect(JSON.stringify(snapshot.context)).not.toContain(NEW_PASSWORD)
      if (snapshot.matches('resetting')) {
        const started = calls.started.at(-1)
        expect(started?.id).toBe('reset')
        // With a checked recovery key the key pair is restored; after "I don't have it", a new pair is made.
        expect(started?.input).toMatchObject({
          token: 'the-token',
          password: NEW_PASSWORD,
          recoveryKey: snapshot.context.keyLossConfirmed ? null : snapshot.context.recoveryKey,
        })
      }
      if (step.event.type === 'xstate.error.actor.checkRecoveryKey') {
        expect(snapshot.context.error).toBe(wrongKey.message)
        expect(snapshot.context.recoveryKey).toBeNull()
      }
      if (snapshot.matches('done') || snapshot.matches('invalid')) expect(snapshot.context.recoveryKey).toBeNull()
    }
    actor.stop()
  })
  it('paths enter every state and take every transition', () => coverage.expectComplete())
})

describe('recovery-key machine', () => {
  const paths = recoveryKeyModel.walks.flatMap((walk) => walkPaths(recoveryKeyModel, walk))
  const coverage = new Coverage(recoveryKeyMachine)
  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_name, path) => {
    const calls = new Calls()
    const tellSession = vi.fn()
    const copyKey = vi.fn()
    const downloadKey = vi.fn()
    const machine = recoveryKeyMachine.provide({
      actors: { create: calls.actor('create'), remove: calls.actor('remove') },
      actions: { tellSession, copyKey, downloadKey },
    })
    const actor = withToasts(createActor(machine, { inspect: coverage.inspector })).start()
    coverage.see(actor.getSnapshot())
    for (const step of path.steps) {
      const toastsBefore = shownToasts().length
      await perform(actor, calls, step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context).toEqual(step.state.context)
      const busy = snapshot.matches({ open: 'creating' }) || snapshot.matches({ open: 'removing' })
      expect(snapshot.hasTag('busy')).toBe(busy)
      if (busy) {
        expect(snapshot.can({ type: 'recovery.close' })).toBe(false)
        // No session in this system: no name, no wrapped key; the typed password goes to the call only.
        expect(calls.started.at(-1)?.input).toEqual({ username: '', wrapped: null, password: PASSWORD })
      }
      expect(JSON.stringify(snapshot.context)).not.toContain(PASSWORD)
      // The key is in memory only while it is shown, and the dialog cannot be closed by accident meanwhile.
      expect(snapshot.context.recoveryKey !== null).toBe(snapshot.matches({ open: 'showing' }))
      if (snapshot.matches({ open: 'showing' })) {
        expect(snapshot.context.recoveryKey).toBe(RECOVERY_KEY)
        expect(snapshot.can({ type: 'recovery.close' })).toBe(false)
      }
      const type = step.event.type
      if (type === 'xstate.done.actor.create') expect(tellSession).toHaveBeenLastCalledWith(expect.anything(), true)
      if (type === 'xstate.done.actor.remove') {
        expect(tellSession).toHaveBeenLastCalledWith(expect.anything(), false)
        expect(shownToasts().at(-1)).toMatchObject({ type: 'success', message: RECOVERY_KEY_REMOVED })
      }
      if (type === 'recovery.saved') expect(shownToasts().at(-1)).toMatchObject({ type: 'success', message: RECOVERY_KEY_SAVED })
      if (type === 'xstate.error.actor.create' || type === 'xstate.error.actor.remove') {
        expect(snapshot.context.error).toBe(recoveryFailureText.get(step.event.error))
        expect(shownToasts().length).toBe(toastsBefore)
      }
      if (type === 'recovery.copy') expect(copyKey).toHaveBeenCalled()
      if (type === 'recovery.download') expect(downloadKey).toHaveBeenCalled()
    }
    actor.stop()
  })
  it('paths enter every state and take every transition', () => coverage.expectComplete())

  it('the downloaded file names the member and holds the key', () => {
    const text = recoveryKeyText('robin', RECOVERY_KEY)
    expect(text).toContain('@robin')
    expect(text).toContain(RECOVERY_KEY)
  })
})
