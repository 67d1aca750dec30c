import { calls, run } from '../../api/calls'
import { emailCalls, type ChangeEmailRequest, type CurrentUser } from '../../api/email.calls'

/** What Change email takes: the member's name (for their KDF settings), the new address and the typed password. */
export interface ChangeEmailInput {
  username: string
  newEmail: string
  password: string
}

/**
 * The new address, and the password proven as a password change proves it (proveCurrentPassword). The key derivation
 * (hash-wasm and the message crypto) loads on the first change: the email machine runs in the shell's banner too, and
 * a signed-in first load must not carry it.
 */
export async function changeEmailRequest(input: ChangeEmailInput, signal?: AbortSignal): Promise<ChangeEmailRequest> {
  const { proveCurrentPassword } = await import('../keys/keys.auth')
  return { newEmail: input.newEmail.trim(), ...(await proveCurrentPassword(input.username, input.password, signal)) }
}

export async function changeEmail(input: ChangeEmailInput, signal: AbortSignal): Promise<CurrentUser> {
  return run(emailCalls.change(await changeEmailRequest(input, signal)), signal)
}

export function resendLink(signal: AbortSignal): Promise<void> {
  return run(emailCalls.resend(), signal)
}

/** Opens the link; signed in, the member as the server now sees them (the link may have changed their address). */
export async function verifyLink(
  input: { token: string; signedIn: boolean },
  signal: AbortSignal,
): Promise<{ email: string; user: CurrentUser | null }> {
  const email = await run(emailCalls.verify(input.token), signal)
  const user = input.signedIn ? await run(calls.me(), signal).catch(() => null) : null
  return { email, user }
}
