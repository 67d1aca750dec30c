import { expect } from 'vitest'
import { createActor, type AnyEventObject, type AnyStateMachine } from 'xstate'
import { INVALID_CODE, SIGN_IN_TOO_SLOW } from '../../../src/api/contract/two-factor'
import { Invalid, Network, Unauthorized } from '../../../src/api/errors'
import { CryptoUnavailable, UnacceptableKdf, type DerivedSecrets, type NewKeyPair } from '../../../src/crypto'
import type { LoginProof, PreparedLogin } from '../../../src/machines/keys/keys.auth'
import { loginMachine } from '../../../src/machines/login/login.machine'
import { registerMachine } from '../../../src/machines/register/register.machine'
import { sessionMachine } from '../../../src/machines/session/session.machine'
import { noSession, robin, robinAuth } from '../support/fixtures'
import type { MachineModel } from '../support/walks'

// The login and register forms' models: the submit, the password's derivation in the browser (settings refused, or
// the prelogin unreachable, fail the form before anything else is sent), the server's success and two failures, and
// the message key's step, which never blocks signing in (login: unlocking after the server's answer; register:
// makingKeys before it), and keeping (the keys reach the browser's store before the session signs in). The crypto runs as named actors (`derive`, `prepareKeys`, `makeKeys`) the tests settle like
// calls. Walked by
// tests/machines/credentials.machine.test.ts and printed by `npm run paths -- login` / `npm run paths -- register`.

/** A real session actor (no stored token, so it calls nothing) to receive the success event. */
export function startSession() {
  return createActor(sessionMachine, { input: { stored: noSession } }).start()
}

export const networkError = new Network({ message: 'Unable to reach the server. Check your connection and try again.' })
export const noWebCrypto = new CryptoUnavailable({ message: 'Encryption needs a secure connection (https).' })

export const kdfRefused = new UnacceptableKdf({ message: 'The server asked for password settings this app refuses.' })

/** Stand-ins for the crypto's results: the machines only carry them. */
export const fakePrivateKey = { type: 'private', extractable: false } as unknown as CryptoKey
const fakeWrappingKey = { type: 'secret', extractable: false } as unknown as CryptoKey
export const secrets: DerivedSecrets = {
  authSecret: 'auth-secret',
  wrappingKey: fakeWrappingKey,
  kdf: { algorithm: 'argon2id', salt: 'AAECAwQFBgcICQoLDA0ODw', memory: 32_768, iterations: 3, parallelism: 1 },
}
export const derivedProof: LoginProof = { kind: 'derived', secrets }
export const legacyProof: LoginProof = { kind: 'legacy' }
export const newPair: NewKeyPair = { publicKey: 'public-key', wrappedPrivateKey: 'wrapped-new', privateKey: fakePrivateKey }
export const unlocked: PreparedLogin = {
  auth: robinAuth,
  outcome: { status: 'ready', keys: { userId: robin.id, publicKey: 'public-key', privateKey: fakePrivateKey } },
}
export const notUnlocked: PreparedLogin = {
  auth: robinAuth,
  outcome: { status: 'unavailable', reason: 'Encryption needs a secure connection (https).' },
}

export interface Form {
  name: string
  machine: AnyStateMachine
  /** The named actors the machine runs, which the test settles. */
  actors: string[]
  submit: AnyEventObject
  events: AnyEventObject[]
  /** The states in which the form is busy. */
  busy: string[]
  /** The call (or crypto step) a step starts, with the input it must carry. */
  starts: (event: AnyEventObject) => { id: string; input: unknown } | undefined
  serverError: Unauthorized | Invalid
  /** What the member reads under the form after a failure. */
  failureText: (error: unknown) => string
  successEvent: string
}

/** A form's model: one walk, from a fresh form with a session on the other end. */
function model(form: Form) {
  return {
    name: form.name,
    machine: form.machine,
    walks: [
      {
        name: '',
        options: () => ({
          input: { session: startSession() },
          events: form.events,
          serializeState: (s: { value: unknown; context: { error: string | null } }) =>
            JSON.stringify({ value: s.value, error: s.context.error }),
        }),
      },
    ],
  } satisfies MachineModel
}

const loginServerError = new Unauthorized({ message: 'Invalid username or password', fromServer: true })
/** Two-factor sign-in on: the password's answer is a ticket for the second step. */
export const challenge = { secondFactor: { ticket: 'ticket-1', expiresAt: '2026-11-27T07:05:00.000Z' } }
const wrongCode = new Unauthorized({ message: INVALID_CODE, fromServer: true })
const tooManyCodes = new Invalid({ status: 429, message: 'Too many wrong codes. Try again in 15 minutes.', fromServer: true, details: [] })
export const ticketSpent = new Unauthorized({ message: SIGN_IN_TOO_SLOW, fromServer: true })
// "Remember me" checked: the request asks for the long session, and the session is kept in the browser.
const loginSubmit = { type: 'login.submit', username: 'Robin@Example.org', password: 'Sparrow2026', remember: true }

export const loginForm = {
  name: 'login',
  machine: loginMachine,
  actors: ['derive', 'login', 'verifyCode', 'prepareKeys', 'keepKeys'],
  submit: loginSubmit,
  events: [
    loginSubmit,
    { type: 'xstate.done.actor.derive', output: derivedProof },
    // An account from before the split (prelogin answered null): the password signs in once.
    { type: 'xstate.done.actor.derive', output: legacyProof },
    { type: 'xstate.error.actor.derive', error: kdfRefused },
    { type: 'xstate.error.actor.derive', error: networkError },
    { type: 'xstate.done.actor.login', output: robinAuth },
    { type: 'xstate.error.actor.login', error: loginServerError },
    { type: 'xstate.error.actor.login', error: networkError },
    { type: 'xstate.done.actor.login', output: challenge },
    // The second step: a code (or a recovery code), refused when it cannot be one; or back to the password.
    { type: 'login.code', code: ' 123456 ' },
    { type: 'login.code', code: '12' },
    { type: 'login.back' },
    { type: 'xstate.done.actor.verifyCode', output: robinAuth },
    { type: 'xstate.error.actor.verifyCode', error: wrongCode },
    { type: 'xstate.error.actor.verifyCode', error: tooManyCodes },
    { type: 'xstate.error.actor.verifyCode', error: ticketSpent },
    { type: 'xstate.done.actor.prepareKeys', output: unlocked },
    { type: 'xstate.done.actor.prepareKeys', output: notUnlocked },
    { type: 'xstate.error.actor.prepareKeys', error: new Error('unexpected') },
    { type: 'xstate.done.actor.keepKeys' },
    { type: 'xstate.error.actor.keepKeys', error: new Error('store broke') },
  ],
  busy: ['deriving', 'submitting', 'verifyingCode', 'unlocking', 'keeping'],
  starts: (event) => {
    if (event.type === 'login.submit') return { id: 'derive', input: { username: 'Robin@Example.org', password: 'Sparrow2026' } }
    // The derived secret goes in place of the password; the password only for a legacy account.
    if (event.type === 'xstate.done.actor.derive')
      return {
        id: 'login',
        input:
          event.output === derivedProof
            ? { username: 'Robin@Example.org', authSecret: 'auth-secret', remember: true }
            : { username: 'Robin@Example.org', password: 'Sparrow2026', remember: true },
      }
    if (event.type === 'xstate.done.actor.login' && event.output === robinAuth)
      return { id: 'prepareKeys', input: expect.objectContaining({ auth: robinAuth, password: 'Sparrow2026' }) as unknown }
    // The code goes with the ticket, trimmed; once accepted the key is unlocked with the password typed before it.
    if (event.type === 'login.code' && event.code === ' 123456 ') return { id: 'verifyCode', input: { ticket: 'ticket-1', code: '123456' } }
    if (event.type === 'xstate.done.actor.verifyCode')
      return { id: 'prepareKeys', input: expect.objectContaining({ auth: robinAuth, password: 'Sparrow2026' }) as unknown }
    return undefined
  },
  serverError: loginServerError,
  failureText: (error) =>
    error === networkError
      ? networkError.message
      : error === kdfRefused
        ? kdfRefused.message
        : error === ticketSpent
          ? SIGN_IN_TOO_SLOW
          : loginServerError.message,
  successEvent: 'session.login.succeeded',
} satisfies Form

const registerServerError = new Invalid({ status: 409, message: 'Username is already taken', fromServer: true, details: [] })
const registerRequest = { username: 'robin', email: 'robin@example.org', displayName: 'Robin Wren', password: 'Sparrow2026' }
const registerSubmit = { type: 'register.submit', ...registerRequest }
const registered = {
  username: 'robin',
  email: 'robin@example.org',
  displayName: 'Robin Wren',
  authSecret: 'auth-secret',
  kdf: secrets.kdf,
}
/** argon2id failing outright (out of memory on a small device): nothing is sent. */
const deriveBroke = new Error('argon2id failed')

export const registerForm = {
  name: 'register',
  machine: registerMachine,
  actors: ['derive', 'makeKeys', 'register', 'keepKeys'],
  submit: registerSubmit,
  events: [
    registerSubmit,
    { type: 'xstate.done.actor.derive', output: secrets },
    { type: 'xstate.error.actor.derive', error: deriveBroke },
    { type: 'xstate.done.actor.makeKeys', output: newPair },
    { type: 'xstate.error.actor.makeKeys', error: noWebCrypto },
    { type: 'xstate.done.actor.register', output: robinAuth },
    { type: 'xstate.error.actor.register', error: registerServerError },
    { type: 'xstate.error.actor.register', error: networkError },
    { type: 'xstate.done.actor.keepKeys' },
    { type: 'xstate.error.actor.keepKeys', error: new Error('store broke') },
  ],
  busy: ['deriving', 'makingKeys', 'submitting', 'keeping'],
  starts: (event) => {
    if (event.type === 'register.submit') return { id: 'derive', input: { password: 'Sparrow2026' } }
    if (event.type === 'xstate.done.actor.derive') return { id: 'makeKeys', input: { secrets } }
    // The derived secret, its settings, the public key and the wrapped private key go with the registration; never
    // the password, never the usable key.
    if (event.type === 'xstate.done.actor.makeKeys')
      return { id: 'register', input: { ...registered, publicKey: 'public-key', privateKey: 'wrapped-new' } }
    // No WebCrypto: the account is made keyless.
    if (event.type === 'xstate.error.actor.makeKeys') return { id: 'register', input: registered }
    return undefined
  },
  serverError: registerServerError,
  failureText: (error) =>
    error === networkError
      ? networkError.message
      : error === deriveBroke
        ? 'Could not create your account. Please try again.'
        : registerServerError.message,
  successEvent: 'session.register.succeeded',
} satisfies Form

export const loginModel = model(loginForm)
export const registerModel = model(registerForm)
