import { Effect } from 'effect'
import { compareBytes } from './encoding'
import {
  MalformedKey,
  type CryptoUnavailable,
  type InvalidPublicKey,
  type KeyStoreFailed,
  type WrongPassword,
} from './errors'
import { KEY_ALGORITHM, parsePublicKey, type MemberKeys } from './keys'
import type { KeyStore, StoredKeys } from './key-store'
import { certain } from './webcrypto'
import { openPrivateKey, type Opener } from './wrap'

// The two moments of a session the key material changes hands: login (unwrap with the wrapping key the password just
// typed gives, or the password itself for a legacy wk1 key; check,
// keep in the key store) and logout (forget everything). The session actor calls these; nothing here knows HTTP.

/** What login and register answer about the member's keys (the server's `publicKey` and `privateKey` fields). */
export interface AccountKeys {
  readonly userId: string
  readonly publicKey: string
  readonly wrappedPrivateKey: string
}

/**
 * Whether the private key belongs to the public key: an ephemeral key pair agrees on the same secret with each side
 * only if they are halves of one pair. Catches a server (or a bug) pairing the wrapped key with another public key,
 * which would otherwise make every conversation silently undecryptable for the other member.
 */
export function keysMatch(keys: MemberKeys): Effect.Effect<boolean, InvalidPublicKey | CryptoUnavailable> {
  return Effect.gen(function* () {
    const mine = yield* parsePublicKey(keys.publicKey)
    const probe = yield* certain((s) => s.generateKey(KEY_ALGORITHM, false, ['deriveBits']))
    const [one, two] = yield* certain((s) =>
      Promise.all([
        s.deriveBits({ name: 'ECDH', public: probe.publicKey }, keys.privateKey, 256),
        s.deriveBits({ name: 'ECDH', public: mine.key }, probe.privateKey, 256),
      ]),
    )
    return compareBytes(new Uint8Array(one), new Uint8Array(two)) === 0
  })
}

/**
 * Login: opens the wrapped private key (wk2 with the password's wrapping key, wk1 with the password), checks it
 * against the public key, and keeps both in the store for this member. Nothing is kept but the keys.
 */
export function unlockKeys(
  account: AccountKeys,
  opener: Opener,
  store: KeyStore,
): Effect.Effect<StoredKeys, WrongPassword | MalformedKey | InvalidPublicKey | KeyStoreFailed | CryptoUnavailable> {
  return Effect.gen(function* () {
    const privateKey = yield* openPrivateKey(account.wrappedPrivateKey, opener)
    const keys: StoredKeys = { userId: account.userId, publicKey: account.publicKey, privateKey }
    if (!(yield* keysMatch(keys))) {
      return yield* Effect.fail(new MalformedKey({ message: 'Your encryption key does not match your public key.' }))
    }
    yield* store.save(keys)
    return keys
  })
}

/** Logout (kept beside the store, which the keys actor loads at boot): see key-store.ts. */
export { forgetKeys } from './key-store'
