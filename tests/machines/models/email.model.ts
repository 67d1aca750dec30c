import type { AnyEventObject } from 'xstate'
import { EMAIL_LINK_INVALID } from '../../../src/api/contract/email'
import { Invalid, Network, Server } from '../../../src/api/errors'
import { CHANGE_FAILED, emailMachine } from '../../../src/machines/email/email.machine'
import { VERIFY_FAILED, verifyEmailMachine } from '../../../src/machines/email/verify-email.machine'
import { robin } from '../support/fixtures'
import type { MachineModel } from '../support/walks'

// The email actor (the unconfirmed banner and the Account row) and the /verify-email page. Walked by
// tests/machines/email.machine.test.ts and printed by `npm run paths -- email` / `-- verify-email`.

export const wrongPassword = new Invalid({ status: 400, message: 'Current password is incorrect', fromServer: true, details: [] })
export const offline = new Network({ message: 'Unable to reach the server.' })
export const bare500 = new Server({ status: 500, message: 'Something went wrong on our side.', fromServer: false })
export const usedLink = new Invalid({ status: 400, message: EMAIL_LINK_INVALID, fromServer: true, details: [] })

/** The dialog's error line (and the toast of a failed resend) for each failure. */
export const changeFailureText = new Map<unknown, string>([
  [wrongPassword, 'Current password is incorrect'],
  [offline, CHANGE_FAILED],
])
export const verifyFailureText = new Map<unknown, string>([
  [usedLink, EMAIL_LINK_INVALID],
  [bare500, VERIFY_FAILED],
])

export const typed = { newEmail: 'robin.new@example.org', password: 'Sparrow2026' }
export const pendingRobin = { ...robin, pendingEmail: typed.newEmail }

const emailEvents: AnyEventObject[] = [
  { type: 'email.banner.dismiss' },
  { type: 'email.resend' },
  { type: 'xstate.done.actor.resendLink' },
  { type: 'xstate.error.actor.resendLink', error: offline },
  { type: 'email.change.open' },
  { type: 'email.change.close' },
  { type: 'email.change.submit', ...typed },
  { type: 'email.change.submit', newEmail: 'not an address', password: 'x' },
  { type: 'xstate.done.actor.changeEmail', output: pendingRobin },
  ...[wrongPassword, offline].map((error) => ({ type: 'xstate.error.actor.changeEmail', error })),
]

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'email.change.submit') return event.newEmail === typed.newEmail ? 'email.change.submit' : 'email.change.submit(invalid)'
  if (event.type.startsWith('xstate.error.actor.')) {
    return `${event.type.replace('xstate.error.actor.', '')} failed(${(event.error as { _tag: string })._tag})`
  }
  return undefined
}

export const emailModel = {
  name: 'email',
  machine: emailMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events: emailEvents,
        label,
        edgesOnly: 'three regions side by side (banner, resend, Change email): every interleaving of them is a simple path',
        serializeState: (s) => JSON.stringify({ value: s.value, error: s.context.error }),
      }),
    },
  ],
} satisfies MachineModel

const verifyEvents: AnyEventObject[] = [
  { type: 'xstate.done.actor.verifyLink', output: { email: 'robin@example.org', user: null } },
  ...[usedLink, bare500].map((error) => ({ type: 'xstate.error.actor.verifyLink', error })),
  { type: 'verify.retry' },
]

export const verifyEmailModel = {
  name: 'verify-email',
  machine: verifyEmailMachine,
  walks: [
    {
      name: 'a link with a token',
      options: () => ({
        events: verifyEvents,
        label,
        input: { token: 'A'.repeat(43) },
        serializeState: (s) => JSON.stringify({ value: s.value, error: s.context.error, email: s.context.email }),
      }),
    },
    {
      name: 'a link without one',
      options: () => ({
        events: verifyEvents,
        label,
        input: { token: null },
        serializeState: (s) => JSON.stringify({ value: s.value, error: s.context.error }),
      }),
    },
  ],
} satisfies MachineModel
