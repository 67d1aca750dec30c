import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { changePasswordMachine } from '../../src/machines/change-password/change-password.machine'
import {
  changePasswordSchema,
  isChangePasswordRequest,
  type ChangePasswordValues,
} from '../../src/machines/change-password/change-password.rules'
import { Invalid } from '../../src/api/errors'
import { Calls } from './support/controlled-actors'
import { perform } from './support/model'

// Settings -> Security -> Change password (docs/product.md, "Password change"): the exact messages, the 8-character boundary, and the
// machine refusing a submit the form would refuse, whether the dialog is fresh or showing a failure.

const valid: ChangePasswordValues = { currentPassword: 'Sparrow2026', newPassword: 'Nightingale2027', confirmPassword: 'Nightingale2027' }

/** The first message on each field, as the form shows it. */
function messages(values: ChangePasswordValues): Record<string, string> {
  const result = changePasswordSchema.safeParse(values)
  const shown: Record<string, string> = {}
  for (const issue of result.error?.issues ?? []) shown[issue.path.join('.')] ??= issue.message
  return shown
}

describe('changePasswordSchema', () => {
  it('accepts a change', () => {
    expect(messages(valid)).toEqual({})
  })

  it('says what is wrong, in the spec words', () => {
    expect(messages({ ...valid, currentPassword: '' })).toEqual({ currentPassword: 'Current password is required' })
    const next = (newPassword: string) => messages({ ...valid, newPassword, confirmPassword: newPassword })
    expect(next('Abcde12')).toEqual({ newPassword: 'New password must be at least 8 characters long' })
    expect(next('Abcdef12')).toEqual({})
    expect(next('abcdefgh1')).toEqual({ newPassword: 'Password must contain lowercase, uppercase, and number' })
    expect(next('ABCDEFGH1')).toEqual({ newPassword: 'Password must contain lowercase, uppercase, and number' })
    expect(next('Abcdefghi')).toEqual({ newPassword: 'Password must contain lowercase, uppercase, and number' })
  })

  it('puts the mismatch on the confirmation', () => {
    expect(messages({ ...valid, confirmPassword: 'Nightingale2028' })).toEqual({ confirmPassword: 'New passwords do not match' })
    expect(messages({ ...valid, confirmPassword: '' })).toEqual({ confirmPassword: 'New passwords do not match' })
  })
})

describe('change-password machine guard', () => {
  const prepared = { currentAuthSecret: 'current', newAuthSecret: 'new', kdf: { algorithm: 'argon2id', salt: 's', memory: 1, iterations: 1, parallelism: 1 } }
  const good = { type: 'password.submit', currentPassword: 'Sparrow2026', newPassword: 'Nightingale2027' } as const
  const broken = [
    { ...good, currentPassword: '' },
    { ...good, newPassword: 'Short1' },
    { ...good, newPassword: 'nightingale2027' },
  ]

  function start() {
    const calls = new Calls()
    const machine = changePasswordMachine.provide({
      actors: { prepareChange: calls.actor('prepareChange'), changePassword: calls.actor('changePassword') },
    })
    return { actor: createActor(machine).start(), calls }
  }

  it('refuses a submit the form would refuse while editing: no call, the dialog stays as it was', async () => {
    const { actor, calls } = start()
    await perform(actor, calls, { type: 'password.open' })
    for (const event of broken) {
      expect(isChangePasswordRequest(event)).toBe(false)
      await perform(actor, calls, event)
    }
    expect(actor.getSnapshot().value).toEqual({ open: 'editing' })
    expect(calls.started).toEqual([])
  })

  it('refuses it after a failure too, keeping the reason shown; a valid one is sent', async () => {
    const { actor, calls } = start()
    await perform(actor, calls, { type: 'password.open' })
    await perform(actor, calls, good)
    await perform(actor, calls, { type: 'xstate.done.actor.prepareChange', output: prepared })
    const wrong = new Invalid({ status: 400, message: 'Current password is incorrect', fromServer: true, details: [] })
    await perform(actor, calls, { type: 'xstate.error.actor.changePassword', error: wrong })
    for (const event of broken) await perform(actor, calls, event)
    expect(actor.getSnapshot().value).toEqual({ open: 'failed' })
    expect(actor.getSnapshot().context.error).toBe('Current password is incorrect')
    expect(calls.started.map((c) => c.id)).toEqual(['prepareChange', 'changePassword'])
    await perform(actor, calls, good)
    expect(actor.getSnapshot().value).toEqual({ open: 'preparing' })
    await perform(actor, calls, { type: 'xstate.done.actor.prepareChange', output: prepared })
    expect(actor.getSnapshot().value).toEqual({ open: 'submitting' })
    expect(calls.started).toHaveLength(4)
  })
})
