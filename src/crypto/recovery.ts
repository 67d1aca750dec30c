import { Effect } from 'effect'
import { randomBytes, utf8 } from './encoding'
import { MalformedKey, WrongPassword, type CryptoUnavailable, type InvalidPublicKey } from './errors'
import { keysMatch } from './session-keys'
import { certain } from './webcrypto'
import { rewrapPrivateKey, unwrapPrivateKeyWith, type KeyWrapper, type Opener } from './wrap'

// The message recovery key: a second way to open the member's private key when the password is lost (a reset makes
// a new password, and a new password's wrapping key cannot open what the old one wrapped).
//
//   recovery key  = 28 random symbols of Crockford's base32 (140 bits), shown as 7 groups of 4: XXXX-XXXX-...
//   wrapping key  = HKDF-SHA256(ikm = the 28 symbols in ASCII, salt "wren/recovery/v1", info "wren recovery wrapping v1")
//   recovery copy = wr1.<iv>.<AES-256-GCM(PKCS#8 private key)>, additional data "wr1|recovery.1" (wrap.ts)
//
// No argon2 here: the key is 140 random bits, so there is nothing to guess that stretching would slow down (a
// password needs argon2id because people choose them). The prefix and the additional data differ from the
// password's wk2 copy ("wk2|kdf.<salt>"), so a copy made for one never opens as the other. The server stores the copy
// and never sees the recovery key.

/** Crockford's base32: digits and letters without I, L, O and U (nothing to misread, no accidental words). */
export const RECOVERY_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
export const RECOVERY_SYMBOLS = 28
const GROUP = 4
const BINDING = 'recovery.1'
const SALT = utf8('wren/recovery/v1')
const INFO = utf8('wren recovery wrapping v1')

/** A new recovery key, grouped for reading (7 groups of 4, dashes between). */
export function newRecoveryKey(): string {
  // 256 is a multiple of 32, so `byte & 31` is uniform.
  const symbols = Array.from(randomBytes(RECOVERY_SYMBOLS), (b) => RECOVERY_ALPHABET[b & 31]).join('')
  return groupRecoveryKey(symbols)
}

export function groupRecoveryKey(symbols: string): string {
  return symbols.match(new RegExp(`.{1,${GROUP}}`, 'g'))?.join('-') ?? ''
}

/**
 * The 28 symbols of a typed key, or null: case, spaces and dashes do not matter, and the letters Crockford's alphabet
 * leaves out are read as what they look like (O as 0, I and L as 1).
 */
export function normalizeRecoveryKey(typed: string): string | null {
  const symbols = typed
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1')
  if (symbols.length !== RECOVERY_SYMBOLS) return null
  for (const c of symbols) if (!RECOVERY_ALPHABET.includes(c)) return null
  return symbols
}

const notARecoveryKey = () =>
  new WrongPassword({ message: 'That is not a recovery key: it has 28 letters and digits, like ABCD-EFGH-….' })
const wrongRecoveryKey = () => new WrongPassword({ message: 'This recovery key does not open your message key.' })

/** The recovery key's wrapping key (wr1). WrongPassword when the text is not a recovery key at all. */
export function recoveryWrapper(typed: string): Effect.Effect<KeyWrapper, WrongPassword | CryptoUnavailable> {
  return Effect.gen(function* () {
    const symbols = normalizeRecoveryKey(typed)
    if (symbols === null) return yield* Effect.fail(notARecoveryKey())
    const key = yield* certain(async (s) => {
      const base = await s.importKey('raw', utf8(symbols), 'HKDF', false, ['deriveKey'])
      return s.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: SALT, info: INFO },
        base,
        { name: 'AES-GCM', length: 256 },
        false,
        ['encrypt', 'decrypt', 'unwrapKey'],
      )
    })
    return { key, binding: BINDING, format: 'wr1' as const }
  })
}

/** Settings -> Security: the recovery copy of the member's key, made from the password-wrapped one (wk2, or wk1). */
export function sealRecoveryCopy(
  wrappedPrivateKey: string,
  password: Opener,
  recoveryKey: string,
): Effect.Effect<string, WrongPassword | MalformedKey | CryptoUnavailable> {
  return Effect.gen(function* () {
    const to = yield* recoveryWrapper(recoveryKey)
    return yield* rewrapPrivateKey(wrappedPrivateKey, password, to)
  })
}

/**
 * Whether the typed recovery key opens the recovery copy into the private half of the member's public key (the reset
 * screen asks before the new password, so a wrong key is said at once). Nothing is kept.
 */
export function checkRecoveryKey(
  recoveryCopy: string,
  recoveryKey: string,
  publicKey: string,
): Effect.Effect<void, WrongPassword | MalformedKey | InvalidPublicKey | CryptoUnavailable> {
  return Effect.gen(function* () {
    const from = yield* recoveryWrapper(recoveryKey)
    const privateKey = yield* unwrapPrivateKeyWith(recoveryCopy, from).pipe(
      Effect.catchTag('WrongPassword', () => Effect.fail(wrongRecoveryKey())),
    )
    if (!(yield* keysMatch({ publicKey, privateKey }))) {
      return yield* Effect.fail(new MalformedKey({ message: 'The recovery copy does not match your public key.' }))
    }
  })
}

/**
 * A reset with the recovery key: opens the recovery copy, checks it is the private half of the member's public key
 * (a copy from before a key change, or a server pairing it with another key, would otherwise lose the history
 * silently), and wraps the same key under the new password's wrapping key (wk2).
 */
export function restoreFromRecovery(
  recoveryCopy: string,
  recoveryKey: string,
  publicKey: string,
  newPasswordWrapper: KeyWrapper,
): Effect.Effect<string, WrongPassword | MalformedKey | InvalidPublicKey | CryptoUnavailable> {
  return Effect.gen(function* () {
    yield* checkRecoveryKey(recoveryCopy, recoveryKey, publicKey)
    return yield* rewrapPrivateKey(recoveryCopy, yield* recoveryWrapper(recoveryKey), newPasswordWrapper)
  })
}
