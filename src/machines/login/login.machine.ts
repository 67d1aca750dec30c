import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate'
import { calls, run } from '../../api/calls'
import { describeError } from '../../api/errors'
import { SIGN_IN_TOO_SLOW } from '../../api/contract/two-factor'
import type { AuthResponse, LoginRequest, LoginResponse, SecondFactorRequest } from '../../api/types'
import { describeKeyError } from '../keys/keys'
import {
  deriveLoginProof,
  keepKeys,
  keepingState,
  loginRequest,
  prepareLoginKeys,
  reportKeys,
  type LoginProof,
  type PreparedLogin,
} from '../keys/keys.auth'
import { navigate } from '../lib/navigation'
import type { SessionRef } from '../session/session-ref'
import { isLoginRequest, isSecondFactorCode, type LoginFields } from './login.rules'

// The login form's behaviour once the fields are valid (the form checks them with login.rules.ts, and a submit that
// breaks those rules is refused here too): idle -> deriving (the account's settings from POST /auth/prelogin, then
// argon2id in the browser: a few hundred milliseconds on a phone, shown as "Signing in…") -> submitting (the derived
// authentication secret, never the password; the password only for an account from before, which prelogin says) ->
// unlocking (a legacy account moves over; the message key is unwrapped with the derived wrapping key, or made now for a
// keyless or marked account; the keys actor is told) -> keeping (the keys reach the browser's store) -> succeeded
// (session told, home shown), or failed (the server's reason,
// or settings the browser refuses, shown under the form). The keys never block signing in: `prepareKeys` always ends
// with an outcome (ready, or why not), which the keys actor keeps.
// Two-factor sign-in on: submitting answers a ticket instead of a session -> secondFactor (the code form; the
// password, the wrapping key and the ticket stay in memory only here, to unwrap the message key after the code) ->
// verifyingCode -> unlocking, or back to secondFactor with the server's reason (wrong code, too many wrong codes),
// or failed when the ticket is spent or expired (the password form again). "Back" leaves to idle; every way out of
// the second step forgets the password, the proof and the ticket.

export type LoginEvent =
  | ({ type: 'login.submit' } & LoginFields)
  | { type: 'login.code'; code: string }
  | { type: 'login.back' }

export interface LoginContext {
  session: SessionRef
  error: string | null
  /** What was typed, kept only from the submit until the key is unlocked (never persisted). */
  fields: LoginFields | null
  /** How the password is proven: the derived secrets (with the wrapping key), or the password for a legacy account. */
  proof: LoginProof | null
  /** The server's answer, kept while the key is unlocked. */
  auth: AuthResponse | null
  /** The second step's ticket (two-factor sign-in on), from the password's answer until the code is accepted. */
  ticket: string | null
}

const isChallenge = (answer: LoginResponse): answer is Extract<LoginResponse, { secondFactor: unknown }> =>
  'secondFactor' in answer
/** The ticket is gone (expired, used): only the password form can start again. */
const ticketSpent = (error: unknown) => (error as { message?: unknown } | undefined)?.message === SIGN_IN_TOO_SLOW

const loginSetup = setup({
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
    login: fromPromise<LoginResponse, LoginRequest>(({ input, signal }) => run(calls.login(input), signal)),
    verifyCode: fromPromise<AuthResponse, SecondFactorRequest>(({ input, signal }) =>
      run(calls.loginSecondFactor(input), signal),
    ),
    keepKeys,
    prepareKeys: fromPromise<PreparedLogin, { auth: AuthResponse; password: string; proof: LoginProof }>(
      ({ input, signal }) => prepareLoginKeys(input.auth, input.password, input.proof, signal),
    ),
  },
  actions: {
    reportKeys,
    signIn: sendTo(
      ({ context }) => context.session,
      ({ context }) => ({
        type: 'session.login.succeeded' as const,
        auth: { ...(context.auth as AuthResponse), remember: context.fields?.remember ?? false },
      }),
    ),
    navigateHome: () => navigate('/'),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
    keepFields: assign((_, fields: LoginFields) => ({
      fields: { username: fields.username, password: fields.password, remember: fields.remember ?? false },
    })),
    keepProof: assign((_, proof: LoginProof) => ({ proof })),
    keepAuth: assign((_, auth: AuthResponse) => ({ auth })),
    keepTicket: assign((_, ticket: string) => ({ ticket })),
    forgetPassword: assign({ fields: null, proof: null, auth: null, ticket: null }),
  },
  guards: {
    isValid: (_, values: LoginFields) => isLoginRequest(values),
    isChallenge: (_, answer: LoginResponse) => isChallenge(answer),
    isCode: (_, code: string) => isSecondFactorCode(code),
    ticketSpent: ({ event }) => ticketSpent((event as { error?: unknown }).error),
  },
})

/** The password form: at first, and after a failure (its message shows until the next submit). */
const awaitingSubmit = () =>
  loginSetup.createStateConfig({
    on: {
      'login.submit': {
        guard: { type: 'isValid', params: ({ event }) => event },
        target: 'deriving',
        actions: { type: 'keepFields', params: ({ event }) => event },
      },
    },
  })

export const loginMachine = loginSetup.createMachine({
  id: 'login',
  context: ({ input }) => ({ session: input.session, error: null, fields: null, proof: null, auth: null, ticket: null }),
  initial: 'idle',
  states: {
    idle: awaitingSubmit(),
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
        onDone: [
          {
            guard: { type: 'isChallenge', params: ({ event }) => event.output },
            target: 'secondFactor',
            actions: {
              type: 'keepTicket',
              params: ({ event }) => (isChallenge(event.output) ? event.output.secondFactor.ticket : ''),
            },
          },
          {
            target: 'unlocking',
            actions: { type: 'keepAuth', params: ({ event }) => event.output as AuthResponse },
          },
        ],
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
    /** The password was right and two-factor sign-in is on: a code of the app, or a recovery code. */
    secondFactor: {
      on: {
        'login.code': {
          guard: { type: 'isCode', params: ({ event }) => event.code },
          target: 'verifyingCode',
        },
        'login.back': { target: 'idle', actions: ['forgetPassword', 'clearError'] },
      },
    },
    verifyingCode: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'verifyCode',
        src: 'verifyCode',
        input: ({ context, event }) => {
          assertEvent(event, 'login.code')
          return { ticket: context.ticket ?? '', code: event.code.trim() }
        },
        onDone: { target: 'unlocking', actions: { type: 'keepAuth', params: ({ event }) => event.output } },
        onError: [
          {
            guard: 'ticketSpent',
            target: 'failed',
            actions: ['forgetPassword', { type: 'setError', params: () => SIGN_IN_TOO_SLOW }],
          },
          {
            // A wrong code, too many wrong codes (the server says how long to wait), or no connection: try again.
            target: 'secondFactor',
            actions: {
              type: 'setError',
              params: ({ event }) => describeError(event.error, 'Could not check the code. Please try again.'),
            },
          },
        ],
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
          target: 'keeping',
          actions: [
            {
              type: 'reportKeys',
              params: ({ event }) => ({ userId: event.output.auth.user.id, outcome: event.output.outcome }),
            },
            { type: 'keepAuth', params: ({ event }) => event.output.auth },
          ],
        },
        // prepareKeys answers every failure with an outcome; should it throw all the same, the member still signs in.
        onError: {
          target: 'keeping',
          actions: {
            type: 'reportKeys',
            params: ({ context }) => ({
              userId: context.auth?.user.id ?? '',
              outcome: { status: 'unavailable', reason: 'Your message key could not be set up in this browser.' },
            }),
          },
        },
      },
    },
    /** The keys reach the browser's store before the session signs in and the app moves on (a reload then finds them). */
    keeping: keepingState,
    failed: awaitingSubmit(),
    /** Signed in; the router takes over from here. The password, the secrets and the answer are dropped. */
    succeeded: { entry: 'forgetPassword' },
  },
})

