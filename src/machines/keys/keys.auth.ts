import { Effect } from 'effect'
import { calls, run } from '../../api/calls'
import type { AuthResponse, ChangePasswordRequest, LoginRequest } from '../../api/types'
import {
  deriveSecrets,
  freshKdf,
  generateKeyPair,
  memoryKeyStore,
  passwordWrapper,
  rewrapPrivateKey,
  sealWithKey,
  unlockKeys,
  type DerivedSecrets,
  type NewKeyPair,
} from '../../crypto'
import { fromPromise } from 'xstate'
import { describeKeyError, keysKept, type KeysOutcome, type KeysRef } from './keys'

// What login, register and change password do with the password and the member's message keys, as plain async
// functions the machines run as named actors (`derive`, `prepareKeys`, `makeKeys`, `prepareChange`), so the machine
// tests provide fakes by name; the real crypto is tested in tests/machines/crypto.test.ts. The password is stretched
// here (src/crypto/kdf.ts) into the authentication secret the server sees and the wrapping key it never does; the
// password itself goes to the server only at a legacy account's one last sign-in, and is kept nowhere.

/** Where a form reports how the keys ended: the keys actor (systemId 'keys'). */
export function keysActor(system: { get(systemId: string): unknown }): KeysRef | undefined {
  return system.get('keys') as KeysRef | undefined
}

/** The action login and register end with: the keys actor keeps the member's keys, or why there are none. */
export function reportKeys(
  { system }: { system: { get(systemId: string): unknown } },
  { userId, outcome }: { userId: string; outcome: KeysOutcome },
): void {
  keysActor(system)?.send({ type: 'keys.settled', userId, outcome })
}

/** How a login proves the password: with the derived secrets, or (an account from before) with the password once. */
export type LoginProof = { kind: 'derived'; secrets: DerivedSecrets } | { kind: 'legacy' }

/**
 * Before signing in: the account's settings (POST /auth/prelogin, the same made-up kind for a name nobody has), then
 * argon2id. Rejects with UnacceptableKdf when the server serves settings outside the bounds.
 */
export async function deriveLoginProof(username: string, password: string, signal?: AbortSignal): Promise<LoginProof> {
  const { kdf } = await run(calls.prelogin(username), signal)
  if (kdf === null) return { kind: 'legacy' }
  return { kind: 'derived', secrets: await Effect.runPromise(deriveSecrets(password, kdf)) }
}

/** The login request a proof makes: the secret, or the password for a legacy account. */
export function loginRequest(username: string, password: string, proof: LoginProof): LoginRequest {
  return proof.kind === 'derived' ? { username, authSecret: proof.secrets.authSecret } : { username, password }
}

/** How a settings change proves the current password: the derived secret, or the password of an account not moved over. */
export type CurrentPasswordProof = { currentAuthSecret: string } | { currentPassword: string }

/** The current-password part of a settings change's body, from the proof a login would make. */
export function currentPasswordProof(proof: LoginProof, password: string): CurrentPasswordProof {
  return proof.kind === 'derived' ? { currentAuthSecret: proof.secrets.authSecret } : { currentPassword: password }
}

/**
 * The current password proven as a password change proves it, for the settings that ask for it (email, two-factor,
 * recovery key, account deletion): the secret derived under the account's settings, so the typed password never leaves.
 */
export async function proveCurrentPassword(username: string, password: string, signal?: AbortSignal): Promise<CurrentPasswordProof> {
  return currentPasswordProof(await deriveLoginProof(username, password, signal), password)
}

/** What login hands the session and the keys actor once the keys are settled. */
export interface PreparedLogin {
  /** The login's answer, with the user and wrapped key the upgrade or PUT /auth/keys answered. */
  auth: AuthResponse
  outcome: KeysOutcome
}

/**
 * The step login and register take between telling the keys actor and signing in: the keys reach the browser's store
 * first (keys.ts, keysKept), so a reload right after signing in finds them.
 */
export const keepKeys = fromPromise<void>(({ system }) => keysKept(keysActor(system)))

/**
 * Login's and register's `keeping` state: `keepKeys` runs, then (kept, or not, which never blocks) the session is
 * told (`signIn`) and home shown (`navigateHome`). Both machines name these actions.
 */
export const keepingState = {
  tags: ['busy'],
  invoke: {
    id: 'keepKeys',
    src: 'keepKeys',
    onDone: { target: 'succeeded', actions: ['signIn', 'navigateHome'] },
    onError: { target: 'succeeded', actions: ['signIn', 'navigateHome'] },
  },
} as const

/** Whether login must make the member's key pair now: a keyless account, or one an admin marked (migrate-keys). */
export function needsNewKeys(auth: AuthResponse): boolean {
  return auth.privateKey === null || auth.user.publicKey === null || auth.user.keysRequested
}

/**
 * A legacy account just signed in with its password: fresh settings, the secrets they give, the wk1 key re-wrapped
 * as wk2 (opened with the password, which is what wk1 is under), and POST /auth/upgrade stores all three at once.
 */
async function upgradeLegacy(
  auth: AuthResponse,
  password: string,
  signal?: AbortSignal,
): Promise<{ auth: AuthResponse; secrets: DerivedSecrets }> {
  const secrets = await Effect.runPromise(deriveSecrets(password, freshKdf()))
  const privateKey =
    auth.privateKey === null
      ? undefined
      : await Effect.runPromise(
          Effect.flatMap(passwordWrapper(secrets), (wrapper) => rewrapPrivateKey(auth.privateKey ?? '', { password }, wrapper)),
        )
  const body = { password, authSecret: secrets.authSecret, kdf: secrets.kdf, ...(privateKey ? { privateKey } : {}) }
  const moved = await run(calls.upgradeCredentials(body, auth.token), signal)
  return { auth: { ...auth, user: moved.user, privateKey: moved.privateKey }, secrets }
}

/**
 * After a successful login: moves a legacy account over, then unlocks the wrapped key with the wrapping key (checked
 * against the public key), or, for a keyless or marked account, makes a pair and stores it with PUT /auth/keys. Never
 * rejects: a failure is an outcome with its reason, and the member is signed in all the same (a legacy account that
 * could not move over tries again at its next sign-in). The unlock uses a scratch store: the keys actor is the only
 * writer of the browser's store and saves the keys when it hears of them.
 */
export async function prepareLoginKeys(
  signedIn: AuthResponse,
  password: string,
  proof: LoginProof,
  signal?: AbortSignal,
): Promise<PreparedLogin> {
  let auth = signedIn
  try {
    let secrets: DerivedSecrets
    if (proof.kind === 'legacy') ({ auth, secrets } = await upgradeLegacy(auth, password, signal))
    else secrets = proof.secrets
    const wrapper = await Effect.runPromise(passwordWrapper(secrets))
    if (!needsNewKeys(auth)) {
      const account = { userId: auth.user.id, publicKey: auth.user.publicKey ?? '', wrappedPrivateKey: auth.privateKey ?? '' }
      const keys = await Effect.runPromise(unlockKeys(account, wrapper, memoryKeyStore()))
      return { auth, outcome: { status: 'ready', keys } }
    }
    const pair = await Effect.runPromise(generateKeyPair(sealWithKey(wrapper)))
    const stored = await run(
      calls.setMessageKeys({ publicKey: pair.publicKey, privateKey: pair.wrappedPrivateKey }, auth.token),
      signal,
    )
    return {
      auth: { ...auth, user: stored.user, privateKey: stored.privateKey },
      outcome: { status: 'ready', keys: { userId: auth.user.id, publicKey: pair.publicKey, privateKey: pair.privateKey } },
    }
  } catch (error) {
    return { auth, outcome: { status: 'unavailable', reason: describeKeyError(error) } }
  }
}

/** Registration's secrets: today's settings with a fresh salt. */
export function deriveRegistrationSecrets(password: string): Promise<DerivedSecrets> {
  return Effect.runPromise(deriveSecrets(password, freshKdf()))
}

/** Registration's key pair, wrapped under the wrapping key; rejects without WebCrypto (the account is made keyless). */
export function makeRegistrationKeys(secrets: DerivedSecrets): Promise<NewKeyPair> {
  return Effect.runPromise(Effect.flatMap(passwordWrapper(secrets), (wrapper) => generateKeyPair(sealWithKey(wrapper))))
}

/** What the change-password dialog has typed, and what the session knows. */
export interface PasswordChangeInput {
  username: string
  /** The session's wrapped key, or null for a keyless account. */
  wrapped: string | null
  currentPassword: string
  newPassword: string
}

/**
 * Change password: the current proof (the secret under the member's current settings, or the password of an account
 * not moved over), new secrets under fresh settings, and the private key re-wrapped under the new wrapping key. A key
 * that does not open (a wrong current password) is left out rather than judged here: the server checks the current
 * proof first, so it answers 'Current password is incorrect', and its per-member limit counts every wrong one.
 */
export async function preparePasswordChange(input: PasswordChangeInput, signal?: AbortSignal): Promise<ChangePasswordRequest> {
  const { kdf } = await run(calls.prelogin(input.username), signal)
  const current = kdf === null ? null : await Effect.runPromise(deriveSecrets(input.currentPassword, kdf))
  const next = await Effect.runPromise(deriveSecrets(input.newPassword, freshKdf()))
  const body: ChangePasswordRequest = {
    ...(current ? { currentAuthSecret: current.authSecret } : { currentPassword: input.currentPassword }),
    newAuthSecret: next.authSecret,
    kdf: next.kdf,
  }
  if (input.wrapped === null) return body
  try {
    const from = current ? await Effect.runPromise(passwordWrapper(current)) : { password: input.currentPassword }
    const to = await Effect.runPromise(passwordWrapper(next))
    return { ...body, privateKey: await Effect.runPromise(rewrapPrivateKey(input.wrapped, from, to)) }
  } catch {
    return body
  }
}
