import type { AnyEventObject } from 'xstate'
import { Network } from '../../../src/api/errors'
import type { StoredSession } from '../../../src/machines/session/session.schema'
import { sessionMachine, type SessionEvent } from '../../../src/machines/session/session.machine'
import { checkAuthFailures, noSession, robinAuth, robinFromServer, storedRobin } from '../support/fixtures'
import type { MachineModel } from '../support/walks'

// The session's model: sign-in, sign-out, expiry and the me-check's answers, from a stored token and from none.
// Walked by tests/machines/session.machine.test.ts and printed by `npm run paths -- session`.

const events: Array<SessionEvent | AnyEventObject> = [
  { type: 'session.login.succeeded', auth: robinAuth },
  { type: 'session.register.succeeded', auth: { ...robinAuth, token: 'token-from-register' } },
  { type: 'session.logout' },
  { type: 'session.expired' },
  { type: 'session.user.updated', user: { displayName: 'Robin Renamed', avatar: '/media/robin.webp' } },
  { type: 'session.privateKey.updated', privateKey: 'rewrapped-key' },
  { type: 'xstate.done.actor.checkAuth', output: robinFromServer },
  ...checkAuthFailures.map(({ error }) => ({ type: 'xstate.error.actor.checkAuth', error })),
  { type: 'xstate.done.actor.logout', output: undefined },
  { type: 'xstate.error.actor.logout', error: new Network({ message: 'Unable to reach the server.' }) },
]

const from = (name: string, stored: StoredSession) => ({
  name,
  /** What the browser holds when the app starts. */
  stored,
  options: () => ({
    input: { stored },
    events,
    // Two snapshots are the same state when value and context match (the user's fields matter for persistence).
    serializeState: (snapshot: { value: unknown; context: unknown }) => JSON.stringify({ value: snapshot.value, context: snapshot.context }),
  }),
})

export const fromStoredToken = from('from a stored token', storedRobin)
export const fromNoSession = from('from no stored session', noSession)

export const sessionModel = {
  name: 'session',
  machine: sessionMachine,
  walks: [fromStoredToken, fromNoSession],
} satisfies MachineModel
