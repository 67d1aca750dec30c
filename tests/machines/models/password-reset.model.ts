import type { AnyEventObject } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import { forgotPasswordMachine } from '../../../src/machines/password-reset/forgot-password.machine'
import { RESET_TEXTS } from '../../../src/machines/password-reset/password-reset.rules'
import { RECOVERY_KEY_FAILED, recoveryKeyMachine } from '../../../src/machines/password-reset/recovery-key.machine'
import { resetPasswordMachine } from '../../../src/machines/password-reset/reset-password.machine'
import { robin } from '../support/fixtures'
import { type MachineModel, valueAndContext } from '../support/walks'

// The password reset's three actors (docs/product.md, "Password reset"): the forgot-password form, the reset screen
// (with and without a recovery copy, 2FA or not), and Settings' recovery-key dialog. Walked by
// tests/machines/password-reset.test.ts and printed by `npm run paths -- forgot-password | reset-password | recovery-key`.

export const offline = new Network({ message: 'Unable to reach the server.' })
export const tooMany = new Invalid({ status: 429, message: 'Too many password reset requests. Try again in 1 hour.', fromServer: true, details: [] })
export const linkInvalid = new Invalid({ status: 400, message: RESET_TEXTS.linkInvalid, fromServer: true, details: [] })
export const wrongCode = new Invalid({ status: 400, message: 'Invalid code', fromServer: true, details: [] })
export const wrongPassword = new Invalid({ status: 400, message: 'Current password is incorrect', fromServer: true, details: [] })
export const wrongKey = new Error('This recovery key does not open your message key.')

export const FORGOT_ANSWER = 'If an account has that username or email, a link to reset its password is on its way.'

const forgotEvents: AnyEventObject[] = [
  { type: 'forgot.submit', identifier: ' robin ' },
  { type: 'forgot.submit', identifier: '   ' },
  { type: 'xstate.done.actor.forgot', output: FORGOT_ANSWER },
  { type: 'xstate.error.actor.forgot', error: tooMany },
  { type: 'xstate.error.actor.forgot', error: offline },
  { type: 'forgot.again' },
]

export const forgotPasswordModel = {
  name: 'forgot-password',
  machine: forgotPasswordMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events: forgotEvents,
        serializeState: valueAndContext,
      }),
    },
  ],
} satisfies MachineModel

export const PUBLIC_KEY = 'B' + 'A'.repeat(86)
export const infoWithCopy = { username: 'robin', publicKey: PUBLIC_KEY, recoveryKey: 'wr1.copy', twoFactorEnabled: false }
export const infoWithoutCopy = { username: 'robin', publicKey: PUBLIC_KEY, recoveryKey: null, twoFactorEnabled: true }
export const RECOVERY_KEY = 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-2345'
export const NEW_PASSWORD = 'Nightingale2027'

const resetEvents: AnyEventObject[] = [
  { type: 'xstate.done.actor.check', output: infoWithCopy },
  { type: 'xstate.done.actor.check', output: infoWithoutCopy },
  { type: 'xstate.error.actor.check', error: linkInvalid },
  { type: 'reset.recovery.submit', recoveryKey: RECOVERY_KEY },
  { type: 'reset.recovery.submit', recoveryKey: '  ' },
  { type: 'xstate.done.actor.checkRecoveryKey', output: undefined },
  { type: 'xstate.error.actor.checkRecoveryKey', error: wrongKey },
  { type: 'reset.recovery.skip' },
  { type: 'reset.loss.confirm' },
  { type: 'reset.loss.back' },
  { type: 'reset.password.submit', password: NEW_PASSWORD, twoFactorCode: '123456' },
  { type: 'reset.password.submit', password: 'short', twoFactorCode: '' },
  { type: 'xstate.done.actor.reset', output: 'Your password is reset.' },
  ...[wrongCode, linkInvalid, offline].map((error) => ({ type: 'xstate.error.actor.reset', error })),
]

const resetLabel = (event: AnyEventObject) => {
  if (event.type === 'xstate.done.actor.check') return `check (${event.output.recoveryKey ? 'recovery copy' : 'no copy, 2FA'})`
  if (event.type === 'xstate.error.actor.reset') return `reset failed (${(event.error as Error).message})`
  return undefined
}

export const resetPasswordModel = {
  name: 'reset-password',
  machine: resetPasswordMachine,
  walks: [
    {
      name: '',
      options: () => ({
        input: { token: 'the-token' },
        events: resetEvents,
        label: resetLabel,
        serializeState: valueAndContext,
      }),
    },
  ],
} satisfies MachineModel

export const PASSWORD = 'Sparrow2026'
export const createdKey = { recoveryKey: RECOVERY_KEY, user: { ...robin, hasRecoveryKey: true } }

const recoveryEvents: AnyEventObject[] = [
  { type: 'recovery.open' },
  { type: 'recovery.close' },
  { type: 'recovery.create', password: PASSWORD },
  { type: 'recovery.create', password: '' },
  { type: 'recovery.remove', password: PASSWORD },
  { type: 'xstate.done.actor.create', output: createdKey },
  ...[wrongPassword, offline].map((error) => ({ type: 'xstate.error.actor.create', error })),
  { type: 'xstate.done.actor.remove', output: { ...robin, hasRecoveryKey: false } },
  { type: 'xstate.error.actor.remove', error: wrongPassword },
  { type: 'recovery.copy' },
  { type: 'recovery.download' },
  { type: 'recovery.saved' },
]

/** What the member reads after a failure: the server's words, else ours. */
export const recoveryFailureText = new Map<unknown, string>([
  [wrongPassword, 'Current password is incorrect'],
  [offline, RECOVERY_KEY_FAILED],
])

export const recoveryKeyModel = {
  name: 'recovery-key',
  machine: recoveryKeyMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events: recoveryEvents,
        serializeState: valueAndContext,
      }),
    },
  ],
} satisfies MachineModel
