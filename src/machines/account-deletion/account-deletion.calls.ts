import { calls, run } from '../../api/calls'
import type { DeleteAccountRequest } from '../../api/types'
import { proveCurrentPassword } from '../keys/keys.auth'

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
export async function deleteAccount(input: DeletionInput, signal: AbortSignal, gone: () => void): Promise<string> {
  const proof = await proveCurrentPassword(input.username, input.password, signal)
  const code = input.code.trim()
  const body: DeleteAccountRequest = {
    confirm: input.confirm,
    ...proof,
    ...(code === '' ? {} : { twoFactorCode: code }),
  }
  // Once sent, the deletion is not aborted with the dialog: the server drops the member's sockets in this same
  // request, so the app may sign out (stopping the dialog) before the answer arrives. Then the dialog cannot say it:
  // `gone` does (the toast and the end of the session), as the machine's own actions would have.
  const message = await run(calls.deleteAccount(body), new AbortController().signal)
  if (signal.aborted) gone()
  return message
}
