import { Effect } from 'effect'
import { compareBytes, concat, utf8 } from './encoding'
import { InvalidPublicKey, type CryptoUnavailable } from './errors'
import { parsePublicKey, type MemberKeys, type PublicKey } from './keys'
import { attempt, certain } from './webcrypto'

// One AES-256-GCM key per pair of members, the same on both sides:
//
//   shared = ECDH(my private key, their public key)            32 bytes, the x coordinate; equal on both sides
//   key    = HKDF-SHA256(ikm = shared, salt = "wren/dm/v1",
//                        info = "wren/dm/conversation-key/v1" || low || high)
//
// where low and high are the two raw public keys in byte order, so both members build the same info. Binding both
// public keys ties the key to this exact pair (a key change on either side gives a new conversation key), and the
// version label lets a later scheme derive unrelated keys from the same secret. Static keys: no forward secrecy
// (docs/security.md).

const SALT = utf8('wren/dm/v1')
const INFO_LABEL = utf8('wren/dm/conversation-key/v1')

/** The two public keys in canonical (byte) order: the same pair whatever side computes it. */
export function canonicalPair(a: PublicKey, b: PublicKey): readonly [PublicKey, PublicKey] {
  return compareBytes(a.bytes, b.bytes) <= 0 ? [a, b] : [b, a]
}

/**
 * The conversation key between me and the member whose public key is `theirPublicKey`: non-extractable, for
 * encrypt and decrypt. The sender reads their own messages with it, since ECDH is symmetric. Callers go through
 * ConversationKeyCache (conversation-key-cache.ts) rather than deriving per message.
 */
export function deriveConversationKey(
  me: MemberKeys,
  theirPublicKey: string,
): Effect.Effect<CryptoKey, InvalidPublicKey | CryptoUnavailable> {
  return Effect.gen(function* () {
    const mine = yield* parsePublicKey(me.publicKey)
    const theirs = yield* parsePublicKey(theirPublicKey)
    const shared = new Uint8Array(
      yield* attempt(
        (s) => s.deriveBits({ name: 'ECDH', public: theirs.key }, me.privateKey, 256),
        () => new InvalidPublicKey({ message: 'No shared key can be made with this member.' }),
      ),
    )
    try {
      const [low, high] = canonicalPair(mine, theirs)
      return yield* certain(async (s) => {
        const ikm = await s.importKey('raw', shared, 'HKDF', false, ['deriveKey'])
        return s.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: SALT, info: concat(INFO_LABEL, low.bytes, high.bytes) },
          ikm,
          { name: 'AES-GCM', length: 256 },
          false,
          ['encrypt', 'decrypt'],
        )
      })
    } finally {
      shared.fill(0)
    }
  })
}
