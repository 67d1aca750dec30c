import { Effect } from 'effect'
import { concat, utf8 } from './encoding'
import type { CryptoUnavailable, InvalidPublicKey } from './errors'
import { canonicalPair } from './conversation-key'
import { parsePublicKey } from './keys'
import { certain } from './webcrypto'

// The safety number two members compare (in person, or over another channel) to know that the server gave each the
// other's real public key. Like Signal's: 60 digits in 12 groups of 5, here one number for the pair:
//
//   digest = SHA-512("wren/safety-number/v1" || low || high)      the two raw public keys in byte order
//   group i = (40-bit big-endian integer of digest bytes 5i .. 5i+4) mod 100000, zero-padded to 5 digits
//
// Byte order makes it the same on both sides. 60 digits carry ~199 bits: a server that wants a key pair of its own
// with the same number cannot search for one. Digits, not words or hex, because they read aloud the same in every
// language. A change of either key changes the number; the conversation shows a warning.

const LABEL = utf8('wren/safety-number/v1')
export const SAFETY_NUMBER_GROUPS = 12
const GROUP_BYTES = 5

/** "12345 67890 ..." (12 groups of 5 digits), identical whichever key is passed first. */
export function safetyNumber(
  publicKeyA: string,
  publicKeyB: string,
): Effect.Effect<string, InvalidPublicKey | CryptoUnavailable> {
  return Effect.gen(function* () {
    const [low, high] = canonicalPair(yield* parsePublicKey(publicKeyA), yield* parsePublicKey(publicKeyB))
    const digest = new Uint8Array(yield* certain((s) => s.digest('SHA-512', concat(LABEL, low.bytes, high.bytes))))
    const groups: string[] = []
    for (let i = 0; i < SAFETY_NUMBER_GROUPS; i++) {
      let value = 0
      // Five bytes are 40 bits: past 32-bit integer operators, exact in a double (< 2^53).
      for (let j = 0; j < GROUP_BYTES; j++) value = value * 256 + (digest[i * GROUP_BYTES + j] ?? 0)
      groups.push(String(value % 100_000).padStart(5, '0'))
    }
    return groups.join(' ')
  })
}
