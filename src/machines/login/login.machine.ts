import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate'
import { calls, run } from '../../api/calls'
import { describeError } from '../../api/errors'
import type { AuthResponse, LoginRequest } from '../../api/types'
import type { KeysOutcome } from '../keys/keys'
import { keysActor, prepareLoginKeys, type PreparedLogin } from '../keys/keys.auth'
import { navigate } from '../lib/navigation'
import type { AuthPayload } from '../session/session.machine'
import type { SessionRef } from '../session/session-ref'
import { isLoginRequest } from './login.rules'

// The login form's behaviour once the fields are valid (the form checks them with login.rules.ts, and a submit that
// breaks those rules is refused here too): idle -> submitting -> unlocking (the message key: unwrapped with the
// password just typed, or made now for a keyless or marked account) -> succeeded (keys actor and session told, home
// shown), or failed (the server's reason shown under the form). The keys never block signing in: `prepareKeys`
// always ends with an outcome (ready, or why not), which the keys actor keeps.

export type LoginEvent = { type: 'login.submit' } & LoginRequest

export interface LoginContext {
  session: SessionRef
  error: string | null
  /** The password just typed, kept only from the submit until the key is unlocked (never persisted). */
  password: string | null
  /** The server's answer, kept while the key is unlocked. */
  auth: AuthResponse | null
}

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as { session: SessionRef },
    tags: {} as 'busy',
  },
  actors: {
    login: fromPromise<AuthResponse, LoginRequest>(({ input, signal }) => run(calls.login(input), signal)),
    prepareKeys: fromPromise<PreparedLogin, { auth: AuthResponse; password: string }>(({ input, signal }) =>
      prepareLoginKeys(input.auth, input.password, signal),
    ),
  },
  actions: {
    reportKeys: ({ system }, { userId, outcome }: { userId: string; outcome: KeysOutcome }) =>
      keysActor(system)?.send({ type: 'keys.settled', userId, outcome }),
    reportSuccess: sendTo(
      ({ context }) => context.session,
      (_, auth: AuthPayload) => ({ type: 'session.login.succeeded' as const, auth }),
    ),
    navigateHome: () => navigate('/'),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
    keepPassword: assign((_, password: string) => ({ password })),
    keepAuth: assign((_, auth: AuthResponse) => ({ auth })),
    forgetPassword: assign({ password: null, auth: null }),
  },
  guards: {
    isValid: (_, values: LoginRequest) => isLoginRequest(values),
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({ session: input.session, error: null, password: null, auth: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'login.submit': {
          guard: { type: 'isValid', params: ({ event }) => event },
          target: 'submitting',
          actions: { type: 'keepPassword', params: ({ event }) => event.password },
        },
      },
    },
    submitting: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ event }) => {
          assertEvent(event, 'login.submit')
          return { username: event.username, password: event.password }
        },
        onDone: { target: 'unlocking', actions: { type: 'keepAuth', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: [
            'forgetPassword',
            {
              type: 'setError',
              params: ({ event }) => describeError(event.error, 'Could not log in. Please try again.'),
            },
          ],
        },
      },
    },
    /** Signed in on the server; the message key is unlocked (or made) before the session is told. */
    unlocking: {
      tags: ['busy'],
      invoke: {
        id: 'prepareKeys',
        src: 'prepareKeys',
        input: ({ context }) => ({ auth: context.auth as AuthResponse, password: context.password ?? '' }),
        onDone: {
          target: 'succeeded',
          actions: [
            {
              type: 'reportKeys',
              params: ({ event }) => ({ userId: event.output.auth.user.id, outcome: event.output.outcome }),
            },
            { type: 'reportSuccess', params: ({ event }) => event.output.auth },
            'navigateHome',
          ],
        },
        // prepareKeys answers every failure with an outcome; should it throw all the same, the member still signs in.
        onError: {
          target: 'succeeded',
          actions: [
            {
              type: 'reportKeys',
              params: ({ context }) => ({
                userId: context.auth?.user.id ?? '',
                outcome: { status: 'unavailable', reason: 'Your message key could not be set up in this browser.' },
              }),
            },
            { type: 'reportSuccess', params: ({ context }) => context.auth as AuthResponse },
            'navigateHome',
          ],
        },
      },
    },
    failed: {
      on: {
        'login.submit': {
          guard: { type: 'isValid', params: ({ event }) => event },
          target: 'submitting',
          actions: { type: 'keepPassword', params: ({ event }) => event.password },
        },
      },
    },
    /** Signed in; the router takes over from here. The password and the answer are dropped. */
    succeeded: { entry: 'forgetPassword' },
  },
})

export type LoginMachine = typeof loginMachine
