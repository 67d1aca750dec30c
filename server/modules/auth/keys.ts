import { LIMITS } from '../../../src/api/contract/limits'
import { Invalid } from '../../lib/domain-errors'

/**
 * Direct-message keys as the server sees them: opaque strings the browser made (docs/security.md). The server only
 * bounds their size and alphabet, so that nothing but base64/base64url/compact JSON is stored and echoed back; it
 * never parses, unwraps or checks them cryptographically (it has nothing to check them with).
 */

/** The contract's pattern for keys and ciphertext envelopes (openapi.yaml `PublicKey`), checked again here. */
export const OPAQUE_TEXT = /^[A-Za-z0-9+/=_.:,{}"[\]-]+$/

export const KEYS_TOGETHER = 'publicKey and privateKey must be sent together'
export const REWRAP_REQUIRED = 'Re-encrypt your message key to change the password'
export const NO_KEY_TO_REWRAP = 'This account has no message key to re-encrypt'
export const KEYS_EXIST = 'Message keys already exist'

function checkOpaque(field: string, value: string, max: number): void {
  if (value.length === 0) throw new Invalid(`${field} must not be empty`)
  if (value.length > max) throw new Invalid(`${field} must be at most ${max} characters`)
  if (!OPAQUE_TEXT.test(value)) throw new Invalid(`${field} must be base64, base64url or compact JSON`)
}

export interface KeyPair {
  publicKey: string
  wrappedPrivateKey: string
}

export function checkWrappedPrivateKey(value: string): string {
  checkOpaque('privateKey', value, LIMITS.wrappedPrivateKeyMax)
  return value
}

/** Both halves or neither (older clients and the seed make keyless accounts); a half pair is refused. */
export function keyPairOf(input: { publicKey?: string; privateKey?: string }): KeyPair | undefined {
  if (input.publicKey === undefined && input.privateKey === undefined) return undefined
  if (input.publicKey === undefined || input.privateKey === undefined) throw new Invalid(KEYS_TOGETHER)
  checkOpaque('publicKey', input.publicKey, LIMITS.publicKeyMax)
  return { publicKey: input.publicKey, wrappedPrivateKey: checkWrappedPrivateKey(input.privateKey) }
}

/** A member who can receive messages: has keys and was not asked to make new ones. */
export function receivingKey(user: { publicKey: string | null; keysRequested: boolean }): string | null {
  return user.keysRequested ? null : user.publicKey
}
