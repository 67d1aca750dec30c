import type { UserRow } from '../../db/schema'

// How an account proves its password: by the secret the browser derives from it once the account has KDF settings,
// by the password itself before (a legacy account). Sign-in, a password change and every setting that asks for the
// current password read the proof here.

export const CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect'

/** What a request offers as the proof: exactly one of the two. */
export interface Credential {
  authSecret?: string
  password?: string
}

/**
 * The one proof an account accepts: the derived secret once it has KDF settings, its password before. The wrong kind
 * is checked as a wrong value (same answer, same time), and undefined means "send exactly one".
 */
export function proofFor(user: UserRow | undefined, credential: Credential): string | undefined {
  const { authSecret, password } = credential
  if ((authSecret === undefined) === (password === undefined)) return undefined
  if (!user) return authSecret ?? password
  return (user.kdf === null ? password : authSecret) ?? ''
}
