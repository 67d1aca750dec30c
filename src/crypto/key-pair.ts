import { Effect } from 'effect'
import type { CryptoUnavailable } from './errors'
import { KEY_ALGORITHM, PRIVATE_KEY_USAGES, exportPublicKey } from './keys'
import type { Sealer } from './wrap'
import { certain } from './webcrypto'

/** What registration (or the first login of a keyless account) sends and keeps. */
export interface NewKeyPair {
  /** For the server: base64url of the raw P-256 public point. */
  readonly publicKey: string
  /** For the server: the private key wrapped (wrap.ts: wk2 under the password's wrapping key). */
  readonly wrappedPrivateKey: string
  /** For this browser: the same private key, non-extractable, ready for the key store. */
  readonly privateKey: CryptoKey
}

/**
 * Makes a member's key pair and wraps the private key with `seal`, in one step so that the extractable
 * private key never leaves this function: WebCrypto can only export (hence wrap) a key generated extractable, so it
 * is generated extractable, exported once as PKCS#8, wrapped, and imported again from the same bytes as a
 * non-extractable key, which is the only one returned. The bytes are zeroed and the extractable key is dropped.
 * Importing from the bytes, rather than unwrapping the result, saves a round trip through the wrapping.
 */
export function generateKeyPair(seal: Sealer): Effect.Effect<NewKeyPair, CryptoUnavailable> {
  return Effect.gen(function* () {
    const pair = yield* certain((s) => s.generateKey(KEY_ALGORITHM, true, PRIVATE_KEY_USAGES))
    const pkcs8 = new Uint8Array(yield* certain((s) => s.exportKey('pkcs8', pair.privateKey)))
    try {
      const wrappedPrivateKey = yield* seal(pkcs8)
      const privateKey = yield* certain((s) => s.importKey('pkcs8', pkcs8, KEY_ALGORITHM, false, PRIVATE_KEY_USAGES))
      const publicKey = yield* exportPublicKey(pair.publicKey)
      return { publicKey, wrappedPrivateKey, privateKey }
    } finally {
      pkcs8.fill(0)
    }
  })
}
