import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate'
import { calls, run } from '../../api/calls'
import { describeError } from '../../api/errors'
import type { AuthResponse, LoginRequest } from '../../api/types'
import { navigate } from '../lib/navigation'
import type { AuthPayload } from '../session/session.machine'
import type { SessionRef } from '../session/session-ref'
import { isLoginRequest } from './login.rules'

// The login form's behaviour once the fields are valid (the form checks them with login.rules.ts, and a submit that
// breaks those rules is refused here too): idle -> submitting -> succeeded (session told, home shown) or failed (the
// server's reason shown under the form).

export type LoginEvent = { type: 'login.submit' } & LoginRequest

export interface LoginContext {
  session: SessionRef
  error: string | null
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
  },
  actions: {
    reportSuccess: sendTo(
      ({ context }) => context.session,
      (_, auth: AuthPayload) => ({ type: 'session.login.succeeded' as const, auth }),
    ),
    navigateHome: () => navigate('/'),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
  },
  guards: {
    isValid: (_, values: LoginRequest) => isLoginRequest(values),
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({ session: input.session, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'login.submit': { guard: { type: 'isValid', params: ({ event }) => event }, target: 'submitting' } },
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
        onDone: {
          target: 'succeeded',
          actions: [{ type: 'reportSuccess', params: ({ event }) => event.output }, 'navigateHome'],
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'setError',
            params: ({ event }) => describeError(event.error, 'Could not log in. Please try again.'),
          },
        },
      },
    },
    failed: {
      on: { 'login.submit': { guard: { type: 'isValid', params: ({ event }) => event }, target: 'submitting' } },
    },
    /** Signed in; the router takes over from here. */
    succeeded: {},
  },
})

export type LoginMachine = typeof loginMachine
