import { Effect } from 'effect'
import { WRAPPED_KEY_MAX_LENGTH } from '../api/contract/encryption'
import { fromBase64url, randomBytes, toBase64url, utf8 } from './encoding'
import type { DerivedSecrets } from './kdf'
import { MalformedKey, WrongPassword, type CryptoUnavailable } from './errors'
import { KEY_ALGORITHM, PRIVATE_KEY_USAGES } from './keys'
import { attempt, certain, unavailable } from './webcrypto'

// The private key leaves the browser only wrapped. Today's format, under an AES-256-GCM key (the wrapping key the
// password gives through argon2id and HKDF, kdf.ts; later possibly a recovery key):
//
//   wk2.<iv>.<ciphertext>
//
// - iv: 12 random bytes, base64url; ciphertext: AES-256-GCM of the PKCS#8 private key with its tag, base64url.
// - The additional data is `wk2|<binding>`, where the binding names what the key was derived for (`kdf.<salt>` for
//   the password's wrapping key): a wrapped key moved to another account, or to another slot of the same account,
//   fails to authenticate even if the keys matched.
//
// The earlier format, read only (an account not yet upgraded, at its one legacy sign-in), is wrapped under
// PBKDF2(password):
//
//   wk1.<iterations>.<salt>.<iv>.<ciphertext>
//
// - wk1: "wrapped key, version 1" (a message envelope starts with m1, so the two can never be swapped).
// - iterations: PBKDF2-HMAC-SHA256 iterations, in decimal. In the string so the count can rise (OWASP's
//   recommendation does, every few years) without breaking keys wrapped earlier: the next password change re-wraps
//   at the new count.
// - salt: 16 random bytes, fresh for every wrap (a password change gets a new one), base64url.
// - iv: 12 random bytes, base64url.
// - ciphertext: AES-256-GCM of the PKCS#8 private key with its 16-byte tag, base64url; the additional data is the
//   header `wk1.<iterations>.<salt>` so it cannot be edited on its own.
//
// Unwrapping refuses an iteration count below the floor (a server or a bug cannot make a later re-wrap weaker by
// serving a cheap count) or above the ceiling (a hostile server cannot freeze the tab with 2^31 iterations).

/** OWASP Password Storage Cheat Sheet, PBKDF2-HMAC-SHA256 (2023 onward). */
export const PBKDF2_ITERATIONS = 600_000
/** 16x the current count: room for OWASP to raise it, while a hostile count costs seconds, not hours. */
export const PBKDF2_MAX_ITERATIONS = 10_000_000

/**
 * How many PBKDF2 iterations a wrap uses and the least an unwrap accepts. The app never passes one: every function
 * defaults to OWASP_KDF. Tests pass a cheap policy so that most of them do not spend 0.2-1 s per key derivation;
 * a few tests run the default to check it.
 */
export interface KdfPolicy {
  readonly iterations: number
  readonly minIterations: number
}

export const OWASP_KDF: KdfPolicy = { iterations: PBKDF2_ITERATIONS, minIterations: PBKDF2_ITERATIONS }

const VERSION = 'wk1'
const SALT_BYTES = 16
const IV_BYTES = 12

interface Wrapped {
  readonly iterations: number
  readonly salt: Uint8Array<ArrayBuffer>
  readonly iv: Uint8Array<ArrayBuffer>
  readonly ciphertext: Uint8Array<ArrayBuffer>
  /** The authenticated header: version, iterations, salt. */
  readonly header: Uint8Array<ArrayBuffer>
}

const malformed = (message: string) => new MalformedKey({ message })
const wrongPassword = () => new WrongPassword({ message: 'The password does not unlock your encryption key.' })

function header(iterations: number, salt: Uint8Array): string {
  return `${VERSION}.${iterations}.${toBase64url(salt)}`
}

function parse(text: string, kdf: KdfPolicy): Effect.Effect<Wrapped, MalformedKey> {
  return Effect.suspend(() => {
    if (text.length > WRAPPED_KEY_MAX_LENGTH) return Effect.fail(malformed('The encryption key is too long.'))
    const parts = text.split('.')
    if (parts.length !== 5 || parts[0] !== VERSION)
      return Effect.fail(malformed('The encryption key has an unknown format.'))
    const [, count = '', saltText = '', ivText = '', ciphertextText = ''] = parts
    const iterations = /^[1-9][0-9]{0,7}$/.test(count) ? Number(count) : NaN
    if (!(iterations >= kdf.minIterations && iterations <= PBKDF2_MAX_ITERATIONS)) {
      return Effect.fail(malformed('The encryption key uses a key derivation strength we do not accept.'))
    }
    const salt = fromBase64url(saltText)
    const iv = fromBase64url(ivText)
    const ciphertext = fromBase64url(ciphertextText)
    if (salt?.length !== SALT_BYTES || iv?.length !== IV_BYTES || ciphertext === undefined || ciphertext.length <= 16) {
      return Effect.fail(malformed('The encryption key has an unknown format.'))
    }
    return Effect.succeed({ iterations, salt, iv, ciphertext, header: utf8(header(iterations, salt)) })
  })
}

/** The AES-GCM key a password and salt give. Non-extractable; the usages say what this call will do with it. */
function passwordKey(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number, usages: KeyUsage[]) {
  return certain(async (s) => {
    const material = await s.importKey('raw', utf8(password), 'PBKDF2', false, ['deriveKey'])
    return s.deriveKey(
      { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
      material,
      { name: 'AES-GCM', length: 256 },
      false,
      usages,
    )
  })
}

/**
 * Wraps PKCS#8 bytes under the password at the policy's iteration count with a fresh salt and IV. The bytes are the
 * caller's to zero; nothing here keeps them.
 */
export function sealPkcs8(
  pkcs8: Uint8Array<ArrayBuffer>,
  password: string,
  kdf: KdfPolicy = OWASP_KDF,
): Effect.Effect<string, CryptoUnavailable> {
  return Effect.gen(function* () {
    if (kdf.iterations < kdf.minIterations || kdf.iterations > PBKDF2_MAX_ITERATIONS) {
      return yield* Effect.die(new RangeError(`PBKDF2 iterations out of bounds: ${kdf.iterations}`))
    }
    const salt = randomBytes(SALT_BYTES)
    const iv = randomBytes(IV_BYTES)
    const head = header(kdf.iterations, salt)
    const key = yield* passwordKey(password, salt, kdf.iterations, ['encrypt'])
    const ciphertext = yield* certain((s) => s.encrypt({ name: 'AES-GCM', iv, additionalData: utf8(head) }, key, pkcs8))
    return `${head}.${toBase64url(iv)}.${toBase64url(new Uint8Array(ciphertext))}`
  })
}

/** An AES-256-GCM key that wraps private keys as wk2 (usages encrypt, decrypt, unwrapKey), and what it is bound to. */
export interface KeyWrapper {
  readonly key: CryptoKey
  /** Authenticated with every key it wraps (see the format above). */
  readonly binding: string
  /**
   * The version prefix it writes and reads: wk2 (the default) for the password's wrapping key, wr1 for the recovery
   * key's (recovery.ts). In the additional data too, so one kind never opens as the other.
   */
  readonly format?: WrapFormat
}

export type WrapFormat = 'wk2' | 'wr1'

/** The password's wrapping key as a KeyWrapper, bound to the member's KDF salt; CryptoUnavailable without one. */
export function passwordWrapper(secrets: DerivedSecrets): Effect.Effect<KeyWrapper, CryptoUnavailable> {
  return secrets.wrappingKey === null
    ? Effect.fail(unavailable)
    : Effect.succeed({ key: secrets.wrappingKey, binding: `kdf.${secrets.kdf.salt}` })
}

/** What opens a wrapped key: the password for wk1, a KeyWrapper for wk2. */
export type Opener = { readonly password: string; readonly kdf?: KdfPolicy } | KeyWrapper

const V2 = 'wk2'
const formatOf = (wrapper: KeyWrapper): WrapFormat => wrapper.format ?? V2
const v2AdditionalData = (wrapper: KeyWrapper) => utf8(`${formatOf(wrapper)}|${wrapper.binding}`)

interface WrappedV2 {
  readonly iv: Uint8Array<ArrayBuffer>
  readonly ciphertext: Uint8Array<ArrayBuffer>
}

function parseV2(text: string, format: WrapFormat): Effect.Effect<WrappedV2, MalformedKey> {
  return Effect.suspend(() => {
    const parts = text.split('.')
    if (text.length > WRAPPED_KEY_MAX_LENGTH || parts.length !== 3 || parts[0] !== format)
      return Effect.fail(malformed('The encryption key has an unknown format.'))
    const iv = fromBase64url(parts[1] ?? '')
    const ciphertext = fromBase64url(parts[2] ?? '')
    if (iv?.length !== IV_BYTES || ciphertext === undefined || ciphertext.length <= 16)
      return Effect.fail(malformed('The encryption key has an unknown format.'))
    return Effect.succeed({ iv, ciphertext })
  })
}

/** Wraps PKCS#8 bytes as wk2 under the wrapper's key with a fresh IV. The bytes are the caller's to zero. */
export function sealPkcs8WithKey(
  pkcs8: Uint8Array<ArrayBuffer>,
  wrapper: KeyWrapper,
): Effect.Effect<string, CryptoUnavailable> {
  return Effect.gen(function* () {
    const iv = randomBytes(IV_BYTES)
    const ciphertext = yield* certain((s) =>
      s.encrypt({ name: 'AES-GCM', iv, additionalData: v2AdditionalData(wrapper) }, wrapper.key, pkcs8),
    )
    return `${formatOf(wrapper)}.${toBase64url(iv)}.${toBase64url(new Uint8Array(ciphertext))}`
  })
}

/** How a new key pair is sealed: generateKeyPair takes one so the extractable key never leaves it. */
export type Sealer = (pkcs8: Uint8Array<ArrayBuffer>) => Effect.Effect<string, CryptoUnavailable>

export const sealWithKey =
  (wrapper: KeyWrapper): Sealer =>
  (pkcs8) =>
    sealPkcs8WithKey(pkcs8, wrapper)

/** wk1 under a password: kept for reading and testing the legacy format; the app seals with sealWithKey. */
export const sealWithPassword =
  (password: string, kdf: KdfPolicy = OWASP_KDF): Sealer =>
  (pkcs8) =>
    sealPkcs8(pkcs8, password, kdf)

/** AES-GCM refusing the tag is an OperationError; decrypted bytes that are not a key are a DataError. */
const unwrapFailure = (cause: unknown) =>
  cause instanceof DOMException && cause.name === 'DataError'
    ? malformed('The encryption key is not a P-256 private key.')
    : wrongPassword()

/** Opens a wk2 key with its wrapper into a non-extractable ECDH key (see unwrapPrivateKey). */
export function unwrapPrivateKeyWith(
  wrapped: string,
  wrapper: KeyWrapper,
): Effect.Effect<CryptoKey, WrongPassword | MalformedKey | CryptoUnavailable> {
  return Effect.gen(function* () {
    const parts = yield* parseV2(wrapped, formatOf(wrapper))
    return yield* attempt(
      (s) =>
        s.unwrapKey(
          'pkcs8',
          parts.ciphertext,
          wrapper.key,
          { name: 'AES-GCM', iv: parts.iv, additionalData: v2AdditionalData(wrapper) },
          KEY_ALGORITHM,
          false,
          PRIVATE_KEY_USAGES,
        ),
      unwrapFailure,
    )
  })
}

/** Opens a wrapped key of either version with the right opener. */
export function openPrivateKey(
  wrapped: string,
  opener: Opener,
): Effect.Effect<CryptoKey, WrongPassword | MalformedKey | CryptoUnavailable> {
  return 'password' in opener
    ? unwrapPrivateKey(wrapped, opener.password, opener.kdf)
    : unwrapPrivateKeyWith(wrapped, opener)
}

/** The PKCS#8 bytes inside a wrapped key of either version (for re-wrapping only; the caller zeroes them). */
function decryptPkcs8(
  wrapped: string,
  opener: Opener,
): Effect.Effect<Uint8Array<ArrayBuffer>, WrongPassword | MalformedKey | CryptoUnavailable> {
  return Effect.gen(function* () {
    if ('password' in opener) {
      const parts = yield* parse(wrapped, opener.kdf ?? OWASP_KDF)
      const key = yield* passwordKey(opener.password, parts.salt, parts.iterations, ['decrypt'])
      return new Uint8Array(
        yield* attempt(
          (s) => s.decrypt({ name: 'AES-GCM', iv: parts.iv, additionalData: parts.header }, key, parts.ciphertext),
          wrongPassword,
        ),
      )
    }
    const parts = yield* parseV2(wrapped, formatOf(opener))
    return new Uint8Array(
      yield* attempt(
        (s) =>
          s.decrypt(
            { name: 'AES-GCM', iv: parts.iv, additionalData: v2AdditionalData(opener) },
            opener.key,
            parts.ciphertext,
          ),
        wrongPassword,
      ),
    )
  })
}

/**
 * Wraps an extractable private key (only generateKeyPair holds one, for the moment it takes to wrap it). A key in use
 * is non-extractable and cannot be wrapped again: a password change uses rewrapPrivateKey on the wrapped string.
 */
export function wrapPrivateKey(
  privateKey: CryptoKey,
  password: string,
  kdf: KdfPolicy = OWASP_KDF,
): Effect.Effect<string, MalformedKey | CryptoUnavailable> {
  return Effect.gen(function* () {
    if (!privateKey.extractable || privateKey.type !== 'private') {
      return yield* Effect.fail(malformed('Only a freshly generated private key can be wrapped; use rewrapPrivateKey.'))
    }
    const pkcs8 = new Uint8Array(
      yield* attempt(
        (s) => s.exportKey('pkcs8', privateKey),
        () => malformed('The private key cannot be exported.'),
      ),
    )
    try {
      return yield* sealPkcs8(pkcs8, password, kdf)
    } finally {
      pkcs8.fill(0)
    }
  })
}

/**
 * Opens a wrapped private key with the password into a non-extractable ECDH key. unwrapKey decrypts and imports in
 * one step inside WebCrypto, so the key's bytes never become a JavaScript value. A wrong password (or a tampered
 * ciphertext) fails authentication: WrongPassword; bytes that decrypt but are not a P-256 key: MalformedKey.
 */
export function unwrapPrivateKey(
  wrapped: string,
  password: string,
  kdf: KdfPolicy = OWASP_KDF,
): Effect.Effect<CryptoKey, WrongPassword | MalformedKey | CryptoUnavailable> {
  return Effect.gen(function* () {
    const parts = yield* parse(wrapped, kdf)
    const key = yield* passwordKey(password, parts.salt, parts.iterations, ['unwrapKey'])
    return yield* attempt(
      (s) =>
        s.unwrapKey(
          'pkcs8',
          parts.ciphertext,
          key,
          { name: 'AES-GCM', iv: parts.iv, additionalData: parts.header },
          KEY_ALGORITHM,
          false,
          PRIVATE_KEY_USAGES,
        ),
      unwrapFailure,
    )
  })
}

/**
 * A password change (wk2 to wk2) or a legacy account's upgrade (wk1 to wk2): the same private key wrapped under the
 * new wrapping key with a fresh IV. Works from the wrapped string, because the key in use is non-extractable: the
 * PKCS#8 bytes exist in memory only between decrypt and encrypt, are checked to be a P-256 key (importing them as a
 * non-extractable key that is then dropped), and are zeroed before returning. No extractable CryptoKey is ever made.
 */
export function rewrapPrivateKey(
  wrapped: string,
  from: Opener,
  to: KeyWrapper,
): Effect.Effect<string, WrongPassword | MalformedKey | CryptoUnavailable> {
  return Effect.gen(function* () {
    const pkcs8 = yield* decryptPkcs8(wrapped, from)
    try {
      yield* attempt(
        (s) => s.importKey('pkcs8', pkcs8, KEY_ALGORITHM, false, PRIVATE_KEY_USAGES),
        () => malformed('The encryption key is not a P-256 private key.'),
      )
      return yield* sealPkcs8WithKey(pkcs8, to)
    } finally {
      pkcs8.fill(0)
    }
  })
}
