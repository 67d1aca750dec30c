import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate'
import { calls, run } from '../../api/calls'
import { describeError } from '../../api/errors'
import type { AuthResponse, LoginRequest } from '../../api/types'
import { describeKeyError, type KeysOutcome } from '../keys/keys'
import {
  deriveLoginProof,
  keysActor,
  loginRequest,
  prepareLoginKeys,
  type LoginProof,
  type PreparedLogin,
} from '../keys/keys.auth'
import { navigate } from '../lib/navigation'
import type { AuthPayload } from '../session/session.machine'
import type { SessionRef } from '../session/session-ref'
import { isLoginRequest, type LoginFields } from './login.rules'

// The login form's behaviour once the fields are valid (the form checks them with login.rules.ts, and a submit that
// breaks those rules is refused here too): idle -> deriving (the account's settings from POST /auth/prelogin, then
// argon2id in the browser: a few hundred milliseconds on a phone, shown as "Signing in…") -> submitting (the derived
// authentication secret, never the password; the password only for an account from before, which prelogin says) ->
// unlocking (a legacy account moves over; the message key is unwrapped with the derived wrapping key, or made now for a
// keyless or marked account) -> succeeded (keys actor and session told, home shown), or failed (the server's reason,
// or settings the browser refuses, shown under the form). The keys never block signing in: `prepareKeys` always ends
// with an outcome (ready, or why not), which the keys actor keeps.

export type LoginEvent = { type: 'login.submit' } & LoginFields

export interface LoginContext {
  session: SessionRef
  error: string | null
  /** What was typed, kept only from the submit until the key is unlocked (never persisted). */
  fields: LoginFields | null
  /** How the password is proven: the derived secrets (with the wrapping key), or the password for a legacy account. */
  proof: LoginProof | null
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
    derive: fromPromise<LoginProof, LoginFields>(({ input, signal }) =>
      deriveLoginProof(input.username, input.password, signal),
    ),
    login: fromPromise<AuthResponse, LoginRequest>(({ input, signal }) => run(calls.login(input), signal)),
    prepareKeys: fromPromise<PreparedLogin, { auth: AuthResponse; password: string; proof: LoginProof }>(
      ({ input, signal }) => prepareLoginKeys(input.auth, input.password, input.proof, signal),
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
    keepFields: assign((_, fields: LoginFields) => ({
      fields: { username: fields.username, password: fields.password, remember: fields.remember ?? false },
    })),
    keepProof: assign((_, proof: LoginProof) => ({ proof })),
    keepAuth: assign((_, auth: AuthResponse) => ({ auth })),
    forgetPassword: assign({ fields: null, proof: null, auth: null }),
  },
  guards: {
    isValid: (_, values: LoginFields) => isLoginRequest(values),
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({ session: input.session, error: null, fields: null, proof: null, auth: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'login.submit': {
          guard: { type: 'isValid', params: ({ event }) => event },
          target: 'deriving',
          actions: { type: 'keepFields', params: ({ event }) => event },
        },
      },
    },
    /** Settings from the server, then argon2id: the slow step, so the form says "Signing in…" from here. */
    deriving: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'derive',
        src: 'derive',
        input: ({ event }) => {
          assertEvent(event, 'login.submit')
          return { username: event.username, password: event.password }
        },
        onDone: { target: 'submitting', actions: { type: 'keepProof', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: [
            'forgetPassword',
            {
              type: 'setError',
              params: ({ event }) =>
                (event.error as { _tag?: unknown } | undefined)?._tag === 'UnacceptableKdf'
                  ? describeKeyError(event.error)
                  : describeError(event.error, 'Could not log in. Please try again.'),
            },
          ],
        },
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ context }) => ({
          ...loginRequest(context.fields?.username ?? '', context.fields?.password ?? '', context.proof as LoginProof),
          remember: context.fields?.remember ?? false,
        }),
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
        input: ({ context }) => ({
          auth: context.auth as AuthResponse,
          password: context.fields?.password ?? '',
          proof: context.proof as LoginProof,
        }),
        onDone: {
          target: 'succeeded',
          actions: [
            {
              type: 'reportKeys',
              params: ({ event }) => ({ userId: event.output.auth.user.id, outcome: event.output.outcome }),
            },
            {
              type: 'reportSuccess',
              params: ({ event, context }) => ({ ...event.output.auth, remember: context.fields?.remember ?? false }),
            },
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
            {
              type: 'reportSuccess',
              params: ({ context }) => ({ ...(context.auth as AuthResponse), remember: context.fields?.remember ?? false }),
            },
            'navigateHome',
          ],
        },
      },
    },
    failed: {
      on: {
        'login.submit': {
          guard: { type: 'isValid', params: ({ event }) => event },
          target: 'deriving',
          actions: { type: 'keepFields', params: ({ event }) => event },
        },
      },
    },
    /** Signed in; the router takes over from here. The password, the secrets and the answer are dropped. */
    succeeded: { entry: 'forgetPassword' },
  },
})

export type LoginMachine = typeof loginMachine
