import { calls, run } from '../../api/calls'
import type { DeleteAccountRequest } from '../../api/types'
import { deriveLoginProof } from '../keys/keys.auth'

export interface DeletionInput {
  username: string
  password: string
  /** Empty when two-factor sign-in is off. */
  code: string
  confirm: string
}

/**
 * The password proven as a password change proves it (the derived authentication secret under the account's settings;
 * the password itself only for an account not moved over), then the deletion: the typed password never leaves.
 */
export async function deleteAccount(input: DeletionInput, signal: AbortSignal): Promise<string> {
  const proof = await deriveLoginProof(input.username, input.password, signal)
  const code = input.code.trim()
  const body: DeleteAccountRequest = {
    confirm: input.confirm,
    ...(proof.kind === 'derived' ? { currentAuthSecret: proof.secrets.authSecret } : { currentPassword: input.password }),
    ...(code === '' ? {} : { twoFactorCode: code }),
  }
  return run(calls.deleteAccount(body), signal)
}
