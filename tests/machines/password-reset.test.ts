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
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The password reset's actors, walked along their models (./models/password-reset.model.ts). What the member sees:
// the step of the screen or dialog, the busy buttons, the error line, the toasts; and what goes to the calls.

describeWalks('forgot-password machine', forgotPasswordModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const actor = createActor(forgotPasswordMachine.provide({ actors: { forgot: calls.actor('forgot') } }), { inspect }).start()
  for await (const { event, snapshot } of replay(actor, { calls })) {
    expect(snapshot.hasTag('busy')).toBe(snapshot.matches('sending'))
    if (snapshot.matches('sending')) expect(calls.started.at(-1)).toEqual({ id: 'forgot', input: 'robin' })
    if (event.type === 'xstate.done.actor.forgot') expect(snapshot.context.message).toBe(FORGOT_ANSWER)
    if (event.type === 'xstate.error.actor.forgot') {
      expect(snapshot.matches('editing')).toBe(true)
      expect(snapshot.context.error).toBe(
        (event.error as { fromServer?: boolean }).fromServer ? (event.error as Error).message : RESET_TEXTS.forgotFailed,
      )
    }
  }
  actor.stop()
})

describeWalks('reset-password machine', resetPasswordModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = resetPasswordMachine.provide({
    actors: { check: calls.actor('check'), checkRecoveryKey: calls.actor('checkRecoveryKey'), reset: calls.actor('reset') },
  })
  const actor = createActor(machine, { input: { token: 'the-token' }, inspect }).start()
  expect(calls.started[0]).toEqual({ id: 'check', input: 'the-token' })
  for await (const { event, snapshot } of replay(actor, { calls })) {
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
    if (event.type === 'xstate.error.actor.checkRecoveryKey') {
      expect(snapshot.context.error).toBe(wrongKey.message)
      expect(snapshot.context.recoveryKey).toBeNull()
    }
    if (snapshot.matches('done') || snapshot.matches('invalid')) expect(snapshot.context.recoveryKey).toBeNull()
  }
  actor.stop()
})

describeWalks('recovery-key machine', recoveryKeyModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const tellSession = vi.fn()
  const copyKey = vi.fn()
  const downloadKey = vi.fn()
  const machine = recoveryKeyMachine.provide({
    actors: { create: calls.actor('create'), remove: calls.actor('remove') },
    actions: { tellSession, copyKey, downloadKey },
  })
  const actor = withToasts(createActor(machine, { inspect })).start()
  for await (const { event, snapshot, toastsBefore } of replay(actor, { calls })) {
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
    const type = event.type
    if (type === 'xstate.done.actor.create') expect(tellSession).toHaveBeenLastCalledWith(expect.anything(), true)
    if (type === 'xstate.done.actor.remove') {
      expect(tellSession).toHaveBeenLastCalledWith(expect.anything(), false)
      expect(shownToasts().at(-1)).toMatchObject({ type: 'success', message: RECOVERY_KEY_REMOVED })
    }
    if (type === 'recovery.saved') expect(shownToasts().at(-1)).toMatchObject({ type: 'success', message: RECOVERY_KEY_SAVED })
    if (type === 'xstate.error.actor.create' || type === 'xstate.error.actor.remove') {
      expect(snapshot.context.error).toBe(recoveryFailureText.get(event.error))
      expect(shownToasts().length).toBe(toastsBefore)
    }
    if (type === 'recovery.copy') expect(copyKey).toHaveBeenCalled()
    if (type === 'recovery.download') expect(downloadKey).toHaveBeenCalled()
  }
  actor.stop()
})

describe('recovery-key machine', () => {
  it('the downloaded file names the member and holds the key', () => {
    const text = recoveryKeyText('robin', RECOVERY_KEY)
    expect(text).toContain('@robin')
    expect(text).toContain(RECOVERY_KEY)
  })
})
