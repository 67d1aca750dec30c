import { assign, fromPromise, sendTo, setup } from 'xstate'
import { calls, run } from '../../api/calls'
import { describeError } from '../../api/errors'
import type { AuthResponse, RegisterRequest } from '../../api/types'
import type { DerivedSecrets, NewKeyPair } from '../../crypto'
import { describeKeyError, type KeysOutcome } from '../keys/keys'
import { deriveRegistrationSecrets, keepKeys, keepingState, makeRegistrationKeys, reportKeys } from '../keys/keys.auth'
import { navigate } from '../lib/navigation'
import type { SessionRef } from '../session/session-ref'
import { isRegisterRequest, type RegisterFields } from './register.rules'

// The registration form's behaviour once the fields are valid (the form checks them with register.rules.ts, and a
// submit that breaks those rules is refused here too): idle -> deriving (argon2id of the typed password under fresh
// settings: the authentication secret the server gets instead of the password, and the wrapping key) -> makingKeys
// (the message key pair, its private half wrapped under the wrapping key: both go with the registration) ->
// submitting (the keys actor is told) -> keeping (the keys reach the browser's store) -> succeeded (session told, home
// shown), or failed (the server's reason, e.g. 'Username is already taken', shown under the form). Without WebCrypto (plain http but localhost) the account is made keyless and
// the keys actor keeps the reason; the New Message modal shows it, and the next login on https makes the pair.

export type RegisterEvent = { type: 'register.submit' } & RegisterFields

export interface RegisterContext {
  session: SessionRef
  error: string | null
  /** The form's values from the submit until the server answers (the password included; never persisted). */
  request: RegisterFields | null
  /** What the password gives: the secret sent in its place, the settings, the wrapping key. */
  secrets: DerivedSecrets | null
  /** The key pair made for this registration, or why there is none. */
  keys: NewKeyPair | null
  keysProblem: string | null
  /** The server's answer, held while the keys are kept, for the session. */
  auth: AuthResponse | null
}

/** What the keys actor hears once the account exists: the new keys, or why there are none. */
function outcomeOf(context: RegisterContext, userId: string): KeysOutcome {
  return context.keys
    ? { status: 'ready', keys: { userId, publicKey: context.keys.publicKey, privateKey: context.keys.privateKey } }
    : { status: 'unavailable', reason: context.keysProblem ?? 'Your message key could not be made.' }
}

/** What the server receives: the fields, the derived secret and its settings, the keys; never the password. */
function registerRequest(context: RegisterContext): RegisterRequest {
  const fields = context.request as RegisterFields
  const secrets = context.secrets as DerivedSecrets
  return {
    username: fields.username,
    email: fields.email,
    displayName: fields.displayName,
    authSecret: secrets.authSecret,
    kdf: secrets.kdf,
    ...(context.keys ? { publicKey: context.keys.publicKey, privateKey: context.keys.wrappedPrivateKey } : {}),
  }
}

const registerSetup = setup({
  types: {
    context: {} as RegisterContext,
    events: {} as RegisterEvent,
    input: {} as { session: SessionRef },
    tags: {} as 'busy',
  },
  actors: {
    derive: fromPromise<DerivedSecrets, { password: string }>(({ input }) => deriveRegistrationSecrets(input.password)),
    makeKeys: fromPromise<NewKeyPair, { secrets: DerivedSecrets }>(({ input }) => makeRegistrationKeys(input.secrets)),
    keepKeys,
    register: fromPromise<AuthResponse, RegisterRequest>(({ input, signal }) => run(calls.register(input), signal)),
  },
  actions: {
    keepRequest: assign((_, event: RegisterFields) => ({
      request: {
        username: event.username,
        email: event.email,
        displayName: event.displayName,
        password: event.password,
      },
      secrets: null,
      keys: null,
      keysProblem: null,
    })),
    keepSecrets: assign((_, secrets: DerivedSecrets) => ({ secrets })),
    keepKeys: assign((_, keys: NewKeyPair) => ({ keys })),
    noKeys: assign((_, reason: string) => ({ keysProblem: reason })),
    reportKeys,
    keepAuth: assign((_, auth: AuthResponse) => ({ auth })),
    signIn: sendTo(
      ({ context }) => context.session,
      ({ context }) => ({ type: 'session.register.succeeded' as const, auth: context.auth as AuthResponse }),
    ),
    navigateHome: () => navigate('/'),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
    forgetRequest: assign({ request: null, secrets: null, keys: null, keysProblem: null, auth: null }),
  },
  guards: {
    isValid: (_, values: RegisterFields) => isRegisterRequest(values),
  },
})

/** The form: at first, and after a failure (its message shows until the next submit). */
const awaitingSubmit = () =>
  registerSetup.createStateConfig({
    on: {
      'register.submit': {
        guard: { type: 'isValid', params: ({ event }) => event },
        target: 'deriving',
        actions: { type: 'keepRequest', params: ({ event }) => event },
      },
    },
  })

export const registerMachine = registerSetup.createMachine({
  id: 'register',
  context: ({ input }) => ({
    session: input.session,
    error: null,
    request: null,
    secrets: null,
    keys: null,
    keysProblem: null,
    auth: null,
  }),
  initial: 'idle',
  states: {
    idle: awaitingSubmit(),
    /** argon2id at today's settings: a few hundred milliseconds on a phone. */
    deriving: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'derive',
        src: 'derive',
        input: ({ context }) => ({ password: context.request?.password ?? '' }),
        onDone: { target: 'makingKeys', actions: { type: 'keepSecrets', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: [
            'forgetRequest',
            { type: 'setError', params: () => 'Could not create your account. Please try again.' },
          ],
        },
      },
    },
    makingKeys: {
      tags: ['busy'],
      invoke: {
        id: 'makeKeys',
        src: 'makeKeys',
        input: ({ context }) => ({ secrets: context.secrets as DerivedSecrets }),
        onDone: { target: 'submitting', actions: { type: 'keepKeys', params: ({ event }) => event.output } },
        // No WebCrypto (plain http): the account is made without keys, and the reason is kept.
        onError: {
          target: 'submitting',
          actions: { type: 'noKeys', params: ({ event }) => describeKeyError(event.error) },
        },
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => registerRequest(context),
        onDone: {
          target: 'keeping',
          actions: [
            {
              type: 'reportKeys',
              params: ({ context, event }) => ({ userId: event.output.user.id, outcome: outcomeOf(context, event.output.user.id) }),
            },
            { type: 'keepAuth', params: ({ event }) => event.output },
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            'forgetRequest',
            {
              type: 'setError',
              params: ({ event }) => describeError(event.error, 'Could not create your account. Please try again.'),
            },
          ],
        },
      },
    },
    /** The keys reach the browser's store before the session signs in and the app moves on (a reload then finds them). */
    keeping: keepingState,
    failed: awaitingSubmit(),
    /** Signed in; the router takes over from here. */
    succeeded: { entry: 'forgetRequest' },
  },
})

