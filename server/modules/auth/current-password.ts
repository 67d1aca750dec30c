import type { UserRow } from '../../db/schema'
import { Invalid } from '../../lib/domain-errors'
import type { PasswordHasher } from './passwords'
import { CURRENT_PASSWORD_INCORRECT, proofFor } from './proof'
import type { SignInLimits } from './sign-in-limits'

export const ONE_PROOF = 'Send exactly one of currentAuthSecret and currentPassword'

/** What a request that needs the current password carries: the derived secret, or the password (legacy accounts). */
export interface PasswordProof {
  currentAuthSecret?: string
  currentPassword?: string
}

/**
 * The current password, proven the way every sensitive change asks for it (Change email, the recovery key, deleting
 * the account): guessing it with a stolen token is still password guessing, so a wrong one spends the account's
 * sign-in budget and a right one gives the attempt back.
 */
export async function proveCurrentPassword(
  deps: { passwords: PasswordHasher; signIn: SignInLimits },
  user: UserRow,
  input: PasswordProof,
): Promise<void> {
  const attempt = await deps.signIn.attempt('password', { accountId: user.id }, null, 'password attempts')
  const proof = proofFor(user, { authSecret: input.currentAuthSecret, password: input.currentPassword })
  if (proof === undefined) throw new Invalid(ONE_PROOF)
  if (!(await deps.passwords.verify(user.passwordHash, proof))) throw new Invalid(CURRENT_PASSWORD_INCORRECT)
  await attempt.refund()
}
