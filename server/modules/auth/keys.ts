import {
  PUBLIC_KEY_LENGTH,
  PUBLIC_KEY_PATTERN,
  WRAPPED_KEY_MAX_LENGTH,
  WRAPPED_KEY_V2_PATTERN,
} from '../../../src/api/contract/encryption'
import { Invalid } from '../../lib/domain-errors'

/**
 * Direct-message keys as the server sees them: strings the browser made (docs/security.md), in the exact formats of
 * src/api/contract/encryption.ts (the patterns the browser's own parsers accept). The server checks their shape and
 * size only; it never unwraps or checks them cryptographically (it has nothing to check them with).
 */

export const KEYS_TOGETHER = 'publicKey and privateKey must be sent together'
export const REWRAP_REQUIRED = 'Re-encrypt your message key to change the password'
export const NO_KEY_TO_REWRAP = 'This account has no message key to re-encrypt'
export const KEYS_EXIST = 'Message keys already exist'
export const PUBLIC_KEY_FORMAT = 'publicKey must be a P-256 public key: 87 characters of base64url'
export const WRAPPED_KEY_FORMAT = 'privateKey must be a wrapped key: wk2.<iv>.<ciphertext>'

function checkShape(field: string, value: string, max: number, pattern: RegExp, format: string): void {
  if (value.length === 0) throw new Invalid(`${field} must not be empty`)
  if (value.length > max) throw new Invalid(`${field} must be at most ${max} characters`)
  // Bounded first: the pattern never sees a long string.
  if (!pattern.test(value)) throw new Invalid(format)
}

export interface KeyPair {
  publicKey: string
  wrappedPrivateKey: string
}

/**
 * Only wk2 is stored from now on: a wk1 key is wrapped under PBKDF2 of the password, the cheap offline target the
 * derived wrapping key replaces (accounts not moved over still hold one until their next sign-in).
 */
export function checkWrappedPrivateKey(value: string): string {
  checkShape('privateKey', value, WRAPPED_KEY_MAX_LENGTH, WRAPPED_KEY_V2_PATTERN, WRAPPED_KEY_FORMAT)
  return value
}

/** Both halves or neither (older clients and the seed make keyless accounts); a half pair is refused. */
export function keyPairOf(input: { publicKey?: string; privateKey?: string }): KeyPair | undefined {
  if (input.publicKey === undefined && input.privateKey === undefined) return undefined
  if (input.publicKey === undefined || input.privateKey === undefined) throw new Invalid(KEYS_TOGETHER)
  checkShape('publicKey', input.publicKey, PUBLIC_KEY_LENGTH, PUBLIC_KEY_PATTERN, PUBLIC_KEY_FORMAT)
  return { publicKey: input.publicKey, wrappedPrivateKey: checkWrappedPrivateKey(input.privateKey) }
}

/** A member who can receive messages: has keys and was not asked to make new ones. */
export function receivingKey(user: { publicKey: string | null; keysRequested: boolean }): string | null {
  return user.keysRequested ? null : user.publicKey
}
