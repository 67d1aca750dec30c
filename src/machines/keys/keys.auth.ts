import { Effect } from 'effect'
import { calls, run } from '../../api/calls'
import type { AuthResponse } from '../../api/types'
import { generateKeyPair, memoryKeyStore, rewrapPrivateKey, unlockKeys, type NewKeyPair } from '../../crypto'
import { describeKeyError, type KeysOutcome, type KeysRef } from './keys'

// What login, register and change password do with the member's message keys, as plain async functions the machines
// run as named actors (`prepareKeys`, `makeKeys`, `rewrapKey`), so the machine tests provide fakes by name; the real
// crypto is tested in tests/machines/crypto.test.ts. The password is used here and kept nowhere.

/** Where a form reports how the keys ended: the keys actor (systemId 'keys'). */
export function keysActor(system: { get(systemId: string): unknown }): KeysRef | undefined {
  return system.get('keys') as KeysRef | undefined
}

/** What login hands the session and the keys actor once the keys are settled. */
export interface PreparedLogin {
  /** The login's answer, with the user and wrapped key PUT /auth/keys answered when the keys were made now. */
  auth: AuthResponse
  outcome: KeysOutcome
}

/** Whether login must make the member's key pair now: a keyless account, or one an admin marked (migrate-keys). */
export function needsNewKeys(auth: AuthResponse): boolean {
  return auth.privateKey === null || auth.user.publicKey === null || auth.user.keysRequested
}

/**
 * After a successful login: unlocks the wrapped key with the password just typed (checked against the public key),
 * or, for a keyless or marked account, makes a pair and stores it with PUT /auth/keys. Never rejects: a failure is an
 * outcome with its reason, and the member is signed in all the same. The unlock uses a scratch store: the keys actor
 * is the only writer of the browser's store and saves the keys when it hears of them.
 */
export async function prepareLoginKeys(auth: AuthResponse, password: string, signal?: AbortSignal): Promise<PreparedLogin> {
  try {
    if (!needsNewKeys(auth)) {
      const account = { userId: auth.user.id, publicKey: auth.user.publicKey ?? '', wrappedPrivateKey: auth.privateKey ?? '' }
      const keys = await Effect.runPromise(unlockKeys(account, password, memoryKeyStore()))
      return { auth, outcome: { status: 'ready', keys } }
    }
    const pair = await Effect.runPromise(generateKeyPair(password))
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

/** Registration's key pair, made from the typed password before the account exists. */
export function makeRegistrationKeys(password: string): Promise<NewKeyPair> {
  return Effect.runPromise(generateKeyPair(password))
}

/**
 * Change password: the same private key re-wrapped under the new password, or null when the session holds no wrapped
 * key (a keyless account) or it cannot be re-wrapped (null sends the change without a key). The server checks the
 * current password before the key, so it answers for every case: a wrong current password (the key did not open with
 * it) is 'Current password is incorrect', a right one without a key 'Re-encrypt your message key to change the
 * password'. Nothing is judged here, so the server's per-member limit on attempts counts every wrong password.
 */
export async function rewrapForPasswordChange(
  wrapped: string | null,
  currentPassword: string,
  newPassword: string,
): Promise<string | null> {
  if (wrapped === null) return null
  try {
    return await Effect.runPromise(rewrapPrivateKey(wrapped, currentPassword, newPassword))
  } catch {
    return null
  }
}
