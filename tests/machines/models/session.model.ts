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
  // "Remember me" unchecked: the session is kept in the tab only.
  { type: 'session.login.succeeded', auth: { ...robinAuth, token: 'token-for-this-tab', remember: false } },
  { type: 'session.register.succeeded', auth: { ...robinAuth, token: 'token-from-register' } },
  { type: 'session.logout' },
  { type: 'session.expired' },
  { type: 'session.user.updated', user: { displayName: 'Robin Renamed', avatar: '/media/robin.webp' } },
  { type: 'session.privateKey.updated', privateKey: 'rewrapped-key' },
  { type: 'xstate.done.actor.checkAuth', output: robinFromServer },
  // The me-check's 10 s ran out with no answer.
  { type: 'xstate.after.meCheck.session.checking' },
  ...checkAuthFailures.map(({ error }) => ({ type: 'xstate.error.actor.checkAuth', error })),
  { type: 'xstate.done.actor.logout', output: undefined },
  { type: 'xstate.error.actor.logout', error: new Network({ message: 'Unable to reach the server.' }) },
]

const from = (name: string, stored: StoredSession, edgesOnly?: string) => ({
  name,
  /** What the browser holds when the app starts. */
  stored,
  options: () => ({
    input: { stored },
    events,
    edgesOnly,
    label: (event: AnyEventObject) =>
      event.type === 'session.login.succeeded' && (event as unknown as { auth: { remember?: boolean } }).auth.remember === false
        ? 'session.login.succeeded(not remembered)'
        : undefined,
    // Two snapshots are the same state when value and context match (the user's fields matter for persistence).
    serializeState: (snapshot: { value: unknown; context: unknown }) => JSON.stringify({ value: snapshot.value, context: snapshot.context }),
  }),
})

// From a stored token the member is signed in at once, and there renames, re-wrapped keys, the me-check's answers and
// a new sign-in each make a new (value, context) state: every order of them is a simple path, 3,122 of them for 5
// chart states. The shortest path to every state plus every edge from it (124 paths) still enters every state and
// takes every transition (the test's Coverage check) and still checks the rules after each kind of step. From no
// session the simple paths stay few (61), so all of them are walked.
export const fromStoredToken = from(
  'from a stored token',
  storedRobin,
  'renames, re-wrapped keys, me-check answers and new sign-ins make 3,122 simple paths through 5 chart states',
)
export const fromNoSession = from('from no stored session', noSession)

export const sessionModel = {
  name: 'session',
  machine: sessionMachine,
  walks: [fromStoredToken, fromNoSession],
} satisfies MachineModel
