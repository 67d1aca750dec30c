import type { AnyEventObject } from 'xstate'
import { INVALID_CODE } from '../../../src/api/contract/two-factor'
import { Invalid, Network } from '../../../src/api/errors'
import { TWO_FACTOR_FAILED, twoFactorMachine } from '../../../src/machines/two-factor/two-factor.machine'
import { robin } from '../support/fixtures'
import type { MachineModel } from '../support/walks'

// The Two-Factor Authentication dialog's model: open (off or on), the setup call, the code-and-password submits
// (one the rules refuse), the server's answers, Copy and Download of the codes, close. Walked by
// tests/machines/two-factor.test.ts and printed by `npm run paths -- two-factor`.

export const wrongCode = new Invalid({ status: 400, message: INVALID_CODE, fromServer: true, details: [] })
export const offline = new Network({ message: 'Unable to reach the server.' })

/** What the member reads after a failure: the server's words, else ours. */
export const failureText = new Map<unknown, string>([
  [wrongCode, INVALID_CODE],
  [offline, TWO_FACTOR_FAILED],
])

export const setupAnswer = { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Wren:robin?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' }
export const codes = Array.from({ length: 10 }, (_, i) => `abcde-fgh${i}k`)
export const newCodes = Array.from({ length: 10 }, (_, i) => `mnpqr-stv${i}w`)

export const typed = { code: ' 123456 ', password: 'Sparrow2026' }
const refused = { code: '12', password: '' }

const events: AnyEventObject[] = [
  { type: 'twoFactor.open', enabled: false },
  { type: 'twoFactor.open', enabled: true },
  { type: 'twoFactor.close' },
  { type: 'xstate.done.actor.setup', output: setupAnswer },
  { type: 'xstate.error.actor.setup', error: offline },
  { type: 'twoFactor.enable', ...typed },
  { type: 'twoFactor.enable', ...refused },
  { type: 'xstate.done.actor.enable', output: { user: { ...robin, twoFactorEnabled: true }, recoveryCodes: codes } },
  { type: 'xstate.error.actor.enable', error: wrongCode },
  { type: 'twoFactor.copy' },
  { type: 'twoFactor.download' },
  { type: 'twoFactor.disable', ...typed },
  { type: 'twoFactor.regenerate', ...typed },
  { type: 'twoFactor.regenerate', ...refused },
  { type: 'xstate.done.actor.disable', output: { ...robin, twoFactorEnabled: false } },
  ...[wrongCode, offline].map((error) => ({ type: 'xstate.error.actor.disable', error })),
  { type: 'xstate.done.actor.regenerate', output: newCodes },
  { type: 'xstate.error.actor.regenerate', error: wrongCode },
]

export const twoFactorModel = {
  name: 'two-factor',
  machine: twoFactorMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events,
        serializeState: (s) =>
          JSON.stringify({
            value: s.value,
            error: s.context.error,
            setup: s.context.setup !== null,
            codes: s.context.recoveryCodes?.[0] ?? null,
          }),
      }),
    },
  ],
} satisfies MachineModel
