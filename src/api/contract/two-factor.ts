// Two-factor sign-in's words and code shapes, for both sides: the server answers with these messages and the login
// machine tells a spent ticket (back to the password) from a wrong code (stay on the code) by them.

/** A wrong, reused or foreign code (401 at sign-in, 400 in Settings). */
export const INVALID_CODE = 'Invalid code'
/** An unknown, used or expired second-step ticket: the password has to be typed again. */
export const SIGN_IN_TOO_SLOW = 'Your sign-in took too long; sign in again'

/** What the code field accepts: 6 digits of an authenticator app, or a recovery code (xxxxx-xxxxx). */
export function looksLikeCode(value: string): boolean {
  const plain = value.replace(/[\s-]/g, '')
  return /^\d{6}$/.test(plain) || /^[a-z0-9]{10}$/i.test(plain)
}
