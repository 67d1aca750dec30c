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

/** Preparing failed before anything was sent: the settings could not be fetched (or the browser refused them). */
export const prepareOffline = new Network({ message: 'Unable to reach the server.' })
failureText.set(prepareOffline, PASSWORD_CHANGE_FAILED)

/** What the prepare step answers: secrets derived from both passwords, and the re-wrapped key when there is one. */
export const prepared = {
  currentAuthSecret: 'current-secret',
  newAuthSecret: 'new-secret',
  kdf: { algorithm: 'argon2id', salt: 'AAECAwQFBgcICQoLDA0ODw', memory: 32_768, iterations: 3, parallelism: 1 },
} as const
export const preparedWithKey = { ...prepared, privateKey: 'rewrapped-key' }

const submit = { type: 'password.submit', currentPassword: 'Sparrow2026', newPassword: 'Nightingale2027' }
const events: AnyEventObject[] = [
  { type: 'password.open' },
  { type: 'password.close' },
  submit,
  // The derived secrets with the session's wrapped key re-wrapped under the new wrapping key, or without a key
  // (keyless account, or a wrong current password: the server then says which).
  { type: 'xstate.done.actor.prepareChange', output: preparedWithKey },
  { type: 'xstate.done.actor.prepareChange', output: prepared },
  { type: 'xstate.error.actor.prepareChange', error: prepareOffline },
  { type: 'xstate.done.actor.changePassword', output: 'Password changed' },
  ...[wrongCurrent, offline, bare500].map((error) => ({ type: 'xstate.error.actor.changePassword', error })),
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
          event.type === 'xstate.done.actor.prepareChange'
            ? `prepareChange ${'privateKey' in event.output ? '(re-wrapped)' : '(no key)'}`
            : undefined,
        serializeState: (s) =>
          JSON.stringify({ value: s.value, error: s.context.error, key: s.context.request?.privateKey ?? null }),
      }),
    },
  ],
} satisfies MachineModel
