import type { AnyEventObject } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import { accountDeletionMachine } from '../../../src/machines/account-deletion/account-deletion.machine'
import { DELETE_FAILED } from '../../../src/machines/account-deletion/account-deletion.rules'
import type { MachineModel } from '../support/walks'

// The Delete account dialog's model: open, close, a submit the rules refuse and one they accept, and the server's
// answers. Walked by tests/machines/account-deletion.machine.test.ts, printed by `npm run paths -- account-deletion`.
// Two members: one without a second factor, one with it on (the code is then required).

const wrongPassword = new Invalid({ status: 400, message: 'Current password is incorrect', fromServer: true, details: [] })
const lastAdmin = new Invalid({
  status: 409,
  message: 'You are the last admin: promote another member to admin before deleting your account',
  fromServer: true,
  details: [],
})
const offline = new Network({ message: 'Unable to reach the server.' })

/** The failure toast and error line: the server's words, else 'Failed to delete your account'. */
export const failureText = new Map<unknown, string>([
  [wrongPassword, 'Current password is incorrect'],
  [lastAdmin, lastAdmin.message],
  [offline, DELETE_FAILED],
])

export const accepted = { type: 'deletion.submit', password: 'Sparrow2026', code: '123456', confirm: '@Robin' }
/** The username mistyped: refused before anything is sent. */
export const refused = { type: 'deletion.submit', password: 'Sparrow2026', code: '123456', confirm: 'robn' }
/** No code: refused for a member with a second factor, accepted (and no code sent) for one without. */
export const withoutCode = { type: 'deletion.submit', password: 'Sparrow2026', code: '', confirm: 'robin' }

const events: AnyEventObject[] = [
  { type: 'deletion.open' },
  { type: 'deletion.close' },
  accepted,
  refused,
  withoutCode,
  { type: 'xstate.done.actor.deleteAccount', output: 'Your account is being deleted' },
  ...[wrongPassword, lastAdmin, offline].map((error) => ({ type: 'xstate.error.actor.deleteAccount', error })),
]

const label = (event: AnyEventObject): string | undefined => {
  if (event === accepted) return 'submit'
  if (event === refused) return 'submit (username mistyped)'
  if (event === withoutCode) return 'submit (no code)'
  return undefined
}

export const accountDeletionModel = {
  name: 'account-deletion',
  machine: accountDeletionMachine,
  walks: [false, true].map((twoFactorEnabled) => ({
    name: twoFactorEnabled ? 'two-factor on' : 'two-factor off',
    options: () => ({
      input: { username: 'robin', twoFactorEnabled },
      events,
      label,
      serializeState: (s: { value: unknown; context: { error: string | null; fields: unknown } }) =>
        JSON.stringify({ value: s.value, error: s.context.error, fields: s.context.fields }),
    }),
  })),
} satisfies MachineModel
