import { Effect } from 'effect'
import type { CryptoUnavailable } from './errors'
import { KEY_ALGORITHM, PRIVATE_KEY_USAGES, exportPublicKey } from './keys'
import { OWASP_KDF, sealPkcs8, type KdfPolicy } from './wrap'
import { certain } from './webcrypto'

/** What registration (or the first login of a keyless account) sends and keeps. */
export interface NewKeyPair {
  /** For the server: base64url of the raw P-256 public point. */
  readonly publicKey: string
  /** For the server: the private key wrapped under the password (wrap.ts). */
  readonly wrappedPrivateKey: string
  /** For this browser: the same private key, non-extractable, ready for the key store. */
  readonly privateKey: CryptoKey
}

/**
 * Makes a member's key pair and wraps the private key with their password, in one step so that the extractable
 * private key never leaves this function: WebCrypto can only export (hence wrap) a key generated extractable, so it
 * is generated extractable, exported once as PKCS#8, wrapped, and imported again from the same bytes as a
 * non-extractable key, which is the only one returned. The bytes are zeroed and the extractable key is dropped.
 * Importing from the bytes, rather than unwrapping the result, saves a second PBKDF2 run.
 */
export function generateKeyPair(
  password: string,
  kdf: KdfPolicy = OWASP_KDF,
): Effect.Effect<NewKeyPair, CryptoUnavailable> {
  return Effect.gen(function* () {
    const pair = yield* certain((s) => s.generateKey(KEY_ALGORITHM, true, PRIVATE_KEY_USAGES))
    const pkcs8 = new Uint8Array(yield* certain((s) => s.exportKey('pkcs8', pair.privateKey)))
    try {
      const wrappedPrivateKey = yield* sealPkcs8(pkcs8, password, kdf)
      const privateKey = yield* certain((s) => s.importKey('pkcs8', pkcs8, KEY_ALGORITHM, false, PRIVATE_KEY_USAGES))
      const publicKey = yield* exportPublicKey(pair.publicKey)
      return { publicKey, wrappedPrivateKey, privateKey }
    } finally {
      pkcs8.fill(0)
    }
  })
}
