import { Effect } from 'effect'
import { PUBLIC_KEY_PATTERN } from '../api/contract/encryption'
import { fromBase64url, toBase64url } from './encoding'
import { InvalidPublicKey, type CryptoUnavailable } from './errors'
import { attempt, certain } from './webcrypto'

// The key pair: ECDH over P-256, not X25519. P-256 ECDH is in WebCrypto in every browser we support and in Node, with
// one code path and no dependency; X25519 in WebCrypto is recent and uneven (Chrome 133+, Firefox 130+, Safari 17+,
// older versions of each lack it), and two members must use the same curve to agree on a key, so "X25519 where
// available" would leave a member on an older browser unable to talk to one on a newer. A future curve gets a new
// version of the formats below (its raw public key has a different length, so the two can never be confused).

export const KEY_ALGORITHM: EcKeyImportParams = { name: 'ECDH', namedCurve: 'P-256' }

/** Raw uncompressed point: 0x04 || x || y, 32 bytes each. */
const PUBLIC_KEY_BYTES = 65

/** A public key, checked: its canonical bytes (for hashing) and the imported key (for ECDH). */
export interface PublicKey {
  readonly text: string
  readonly bytes: Uint8Array<ArrayBuffer>
  readonly key: CryptoKey
}

/** A member's own keys in use: the public key as the server stores it and the non-extractable private key. */
export interface MemberKeys {
  readonly publicKey: string
  readonly privateKey: CryptoKey
}

const invalid = (message: string) => new InvalidPublicKey({ message })

/**
 * Parses a public key as the server stores it: base64url of the raw uncompressed P-256 point (87 characters). Raw
 * rather than SPKI: one canonical byte string per key (the safety number and the conversation key hash it), no ASN.1
 * to parse, and WebCrypto's import checks that the point is on the curve (a bad point would leak key bits in ECDH).
 */
export function parsePublicKey(text: string): Effect.Effect<PublicKey, InvalidPublicKey | CryptoUnavailable> {
  return Effect.suspend(() => {
    const bytes = PUBLIC_KEY_PATTERN.test(text) ? fromBase64url(text) : undefined
    if (bytes === undefined || bytes.length !== PUBLIC_KEY_BYTES || bytes[0] !== 0x04) {
      return Effect.fail(invalid('This member has no usable encryption key.'))
    }
    return attempt(
      (s) => s.importKey('raw', bytes, KEY_ALGORITHM, true, []),
      () => invalid('This member has no usable encryption key.'),
    ).pipe(Effect.map((key) => ({ text, bytes, key })))
  })
}

/** The text form of a public CryptoKey. */
export function exportPublicKey(key: CryptoKey): Effect.Effect<string, CryptoUnavailable> {
  return certain((s) => s.exportKey('raw', key)).pipe(Effect.map((raw) => toBase64url(new Uint8Array(raw))))
}

/** The usages a private key in use needs: ECDH to a shared secret (deriveBits) or straight to a key (deriveKey). */
export const PRIVATE_KEY_USAGES: KeyUsage[] = ['deriveBits', 'deriveKey']
