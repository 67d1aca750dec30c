import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate'
import { calls, run } from '../../api/calls'
import { describeError } from '../../api/errors'
import type { AuthResponse, RegisterRequest } from '../../api/types'
import { navigate } from '../lib/navigation'
import type { AuthPayload } from '../session/session.machine'
import type { SessionRef } from '../session/session-ref'
import { isRegisterRequest } from './register.rules'

// The registration form's behaviour once the fields are valid (the form checks them with register.rules.ts, and a
// submit that breaks those rules is refused here too): idle -> submitting -> succeeded (session told, home shown) or
// failed (the server's reason, e.g. 'Username is already taken', shown under the form).

export type RegisterEvent = { type: 'register.submit' } & RegisterRequest

export interface RegisterContext {
  session: SessionRef
  error: string | null
}

export const registerMachine = setup({
  types: {
    context: {} as RegisterContext,
    events: {} as RegisterEvent,
    input: {} as { session: SessionRef },
    tags: {} as 'busy',
  },
  actors: {
    register: fromPromise<AuthResponse, RegisterRequest>(({ input, signal }) => run(calls.register(input), signal)),
  },
  actions: {
    reportSuccess: sendTo(
      ({ context }) => context.session,
      (_, auth: AuthPayload) => ({ type: 'session.register.succeeded' as const, auth }),
    ),
    navigateHome: () => navigate('/'),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
  },
  guards: {
    isValid: (_, values: RegisterRequest) => isRegisterRequest(values),
  },
}).createMachine({
  id: 'register',
  context: ({ input }) => ({ session: input.session, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'register.submit': { guard: { type: 'isValid', params: ({ event }) => event }, target: 'submitting' } },
    },
    submitting: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ event }) => {
          assertEvent(event, 'register.submit')
          return {
            username: event.username,
            email: event.email,
            displayName: event.displayName,
            password: event.password,
          }
        },
        onDone: {
          target: 'succeeded',
          actions: [{ type: 'reportSuccess', params: ({ event }) => event.output }, 'navigateHome'],
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'setError',
            params: ({ event }) => describeError(event.error, 'Could not create your account. Please try again.'),
          },
        },
      },
    },
    failed: {
      on: { 'register.submit': { guard: { type: 'isValid', params: ({ event }) => event }, target: 'submitting' } },
    },
    /** Signed in; the router takes over from here. */
    succeeded: {},
  },
})

export type RegisterMachine = typeof registerMachine
