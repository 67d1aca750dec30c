import { createHash, randomBytes } from 'node:crypto'

/** Opaque bearer tokens: 32 random bytes, base64url (43 characters). Only their SHA-256 is ever stored. */

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/

export function newToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, tokenHash: hashToken(token) }
}

/** A fast hash is enough here (unlike passwords): the input is 256 random bits, not guessable. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** Rejects obviously foreign strings before they cost a database lookup. */
export function looksLikeToken(value: string): boolean {
  return TOKEN_SHAPE.test(value)
}
