import type { AnyEventObject } from 'xstate'
import { Invalid, Network, Server } from '../../../src/api/errors'
import { changePasswordMachine, PASSWORD_CHANGE_FAILED } from '../../../src/machines/change-password/change-password.machine'
import type { MachineModel } from '../support/walks'

// The Change Password dialog's model: open, close, submit, and the server's answers. Walked by
// tests/machines/change-password.machine.test.ts and printed by `npm run paths -- change-password`.

const wrongCurrent = new Invalid({ status: 400, message: 'Current password is incorrect', fromServer: true, details: [] })
const offline = new Network({ message: 'Unable to reach the server.' })
const bare500 = new Server({ status: 500, message: 'Something went wrong on our side.', fromServer: false })

/** The spec's failure toast: the server's error field, else 'Failed to change password'. */
export const failureText = new Map<unknown, string>([
  [wrongCurrent, 'Current password is incorrect'],
  [offline, PASSWORD_CHANGE_FAILED],
  [bare500, PASSWORD_CHANGE_FAILED],
])

/** The re-wrap step failing outright (it answers null instead; the machine treats both alike: no key is sent). */
export const rewrapBroke = new Error('rewrap failed')

const submit = { type: 'password.submit', currentPassword: 'Sparrow2026', newPassword: 'Nightingale2027' }
const events: AnyEventObject[] = [
  { type: 'password.open' },
  { type: 'password.close' },
  submit,
  // The session's wrapped key re-wrapped under the new password, or none (keyless account, or a wrong current password:
  // the server then says which).
  { type: 'xstate.done.actor.rewrapKey', output: 'rewrapped-key' },
  { type: 'xstate.done.actor.rewrapKey', output: null },
  { type: 'xstate.error.actor.rewrapKey', error: rewrapBroke },
  { type: 'xstate.done.actor.changePassword', output: 'Password changed' },
  ...[...failureText.keys()].map((error) => ({ type: 'xstate.error.actor.changePassword', error })),
]

export const changePasswordModel = {
  name: 'change-password',
  machine: changePasswordMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events,
        label: (event) =>
          event.type === 'xstate.done.actor.rewrapKey' ? `rewrapKey ${event.output === null ? '(no key)' : '(re-wrapped)'}` : undefined,
        serializeState: (s) =>
          JSON.stringify({ value: s.value, error: s.context.error, key: s.context.request?.privateKey ?? null }),
      }),
    },
  ],
} satisfies MachineModel
