import { Effect } from 'effect'
import { deriveSecrets, freshKdf, generateKeyPair, passwordWrapper, sealWithKey } from '../../crypto'
import { checkRecoveryKey, newRecoveryKey, restoreFromRecovery, sealRecoveryCopy } from '../../crypto/recovery'
import type { Opener } from '../../crypto/wrap'
import { run } from '../../api/calls'
import { passwordResetCalls, type PasswordResetInfo, type ResetPasswordRequest } from '../../api/password-reset.calls'
import type { CurrentUser } from '../../api/types'
import { currentPasswordProof, deriveLoginProof, proveCurrentPassword } from '../keys/keys.auth'

// What the reset screen and the recovery-key dialog do with passwords and keys, as plain async functions the machines
// run as named actors (so the machine tests provide fakes by name; the crypto is tested in
// tests/machines/recovery-crypto.test.ts). Passwords and the recovery key stay in the browser: the server receives the
// derived secret and wrapped keys only.

export interface ResetInput {
  token: string
  info: PasswordResetInfo
  /** The recovery key the member typed (checked already), or null: a new key pair is made. */
  recoveryKey: string | null
  password: string
  twoFactorCode: string
}

/** The reset request: the new secret under fresh settings, and the key pair (restored from the recovery copy, or new). */
export async function prepareReset(input: ResetInput): Promise<ResetPasswordRequest> {
  const next = await Effect.runPromise(deriveSecrets(input.password, freshKdf()))
  const code = input.twoFactorCode.trim()
  const body: ResetPasswordRequest = {
    token: input.token,
    newAuthSecret: next.authSecret,
    kdf: next.kdf,
    ...(input.info.twoFactorEnabled && code ? { twoFactorCode: code } : {}),
  }
  const { publicKey, recoveryKey: copy } = input.info
  if (publicKey === null) return body
  const to = await Effect.runPromise(passwordWrapper(next))
  if (input.recoveryKey !== null && copy !== null) {
    const privateKey = await Effect.runPromise(restoreFromRecovery(copy, input.recoveryKey, publicKey, to))
    return { ...body, publicKey, privateKey }
  }
  const pair = await Effect.runPromise(generateKeyPair(sealWithKey(to)))
  return { ...body, publicKey: pair.publicKey, privateKey: pair.wrappedPrivateKey }
}

export const resetActions = {
  check: (token: string, signal: AbortSignal) => run(passwordResetCalls.check(token), signal),
  checkRecoveryKey: (input: { info: PasswordResetInfo; recoveryKey: string }) =>
    Effect.runPromise(checkRecoveryKey(input.info.recoveryKey ?? '', input.recoveryKey, input.info.publicKey ?? '')),
  reset: async (input: ResetInput, signal: AbortSignal) => run(passwordResetCalls.reset(await prepareReset(input)), signal),
  forgot: (identifier: string, signal: AbortSignal) => run(passwordResetCalls.forgot(identifier), signal),
}

/** What the recovery-key dialog knows of the member: their name (for the KDF settings) and wrapped key. */
export interface RecoveryKeyInput {
  username: string
  wrapped: string | null
  password: string
}

/**
 * Settings -> Security, "Create recovery key": a new random key, the session's wrapped key opened with the password
 * and wrapped again under the recovery key (wr1), stored with the password's proof. Answers the key (shown once) and
 * the member as the server now sees them.
 */
export async function createRecoveryKey(input: RecoveryKeyInput, signal: AbortSignal): Promise<{ recoveryKey: string; user: CurrentUser }> {
  if (input.wrapped === null) throw new Error('Your message key is not set up yet.')
  const proof = await deriveLoginProof(input.username, input.password, signal)
  const from: Opener =
    proof.kind === 'derived' ? await Effect.runPromise(passwordWrapper(proof.secrets)) : { password: input.password }
  const recoveryKey = newRecoveryKey()
  const copy = await Effect.runPromise(sealRecoveryCopy(input.wrapped, from, recoveryKey))
  const user = await run(
    passwordResetCalls.setRecoveryKey({
      recoveryKey: copy,
      ...currentPasswordProof(proof, input.password),
    }),
    signal,
  )
  return { recoveryKey, user }
}

export async function removeRecoveryKey(input: RecoveryKeyInput, signal: AbortSignal): Promise<CurrentUser> {
  const proof = await proveCurrentPassword(input.username, input.password, signal)
  return run(passwordResetCalls.removeRecoveryKey(proof), signal)
}
