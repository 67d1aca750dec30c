import { Effect } from 'effect'
import { argon2id, createHMAC, createSHA256 } from 'hash-wasm'
import { KDF_DEFAULT, kdfProblem, type KdfSettings } from '../api/contract/kdf'
import { concat, fromBase64url, randomBytes, toBase64url, utf8 } from './encoding'
import { UnacceptableKdf, type CryptoUnavailable } from './errors'
import { certain, subtle } from './webcrypto'

// The password never leaves the browser in a form that unwraps the message key. It is stretched once:
//
//   master       = argon2id(NFC(password), salt, m, t, p=1), 64 bytes
//   authSecret   = HKDF-SHA256(master, info "wren auth secret v1"), 32 bytes, base64url: sent in place of the password
//   wrappingKey  = HKDF-SHA256(master, info "wren key wrapping v1"), AES-256-GCM, non-extractable: never sent
//
// HKDF with distinct labels makes the two independent: knowing the authentication secret (the server, or whoever
// reads sign-in requests) gives nothing about the wrapping key short of guessing the password through argon2id.
// The settings come from the server (POST /auth/prelogin) and are refused outside KDF_FLOOR..KDF_CEILING.
// The authentication secret's HKDF runs in hash-wasm, not WebCrypto: a page on plain http (no crypto.subtle) can
// still sign in, and only the wrapping key (hence messaging) is missing there, as before.

const AUTH_INFO = utf8('wren auth secret v1')
const WRAP_INFO = utf8('wren key wrapping v1')
const MASTER_BYTES = 64
const SALT_BYTES = 16

/** What a password gives under one member's settings. */
export interface DerivedSecrets {
  /** Sent to the server in place of the password. */
  readonly authSecret: string
  /** Wraps the private key (wk2, wrap.ts); non-extractable. Null without WebCrypto (plain http). */
  readonly wrappingKey: CryptoKey | null
  /** The settings used, stored by the server beside the member. */
  readonly kdf: KdfSettings
}

/** Today's settings with a fresh salt: for a registration, a password change and a legacy account's upgrade. */
export function freshKdf(): KdfSettings {
  return { algorithm: 'argon2id', salt: toBase64url(randomBytes(SALT_BYTES)), ...KDF_DEFAULT }
}

/** The settings if they are within the bounds, else UnacceptableKdf (a hostile server, or a broken one). */
export function acceptKdf(kdf: KdfSettings): Effect.Effect<KdfSettings, UnacceptableKdf> {
  const problem = kdfProblem(kdf)
  return problem === null
    ? Effect.succeed(kdf)
    : Effect.fail(new UnacceptableKdf({ message: `The server asked for password settings this app refuses (${problem}).` }))
}

/** The 64-byte master secret. hash-wasm runs argon2id in WebAssembly (CSP: 'wasm-unsafe-eval'). */
function master(password: string, kdf: KdfSettings): Effect.Effect<Uint8Array<ArrayBuffer>> {
  return Effect.promise(async () => {
    const out = await argon2id({
      password: utf8(password.normalize('NFC')),
      salt: fromBase64url(kdf.salt) ?? new Uint8Array(0),
      parallelism: kdf.parallelism,
      iterations: kdf.iterations,
      memorySize: kdf.memory,
      hashLength: MASTER_BYTES,
      outputType: 'binary',
    })
    const bytes = new Uint8Array(out)
    out.fill(0)
    return bytes
  })
}

async function hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const mac = await createHMAC(createSHA256(), key)
  mac.init()
  mac.update(data)
  return new Uint8Array(mac.digest('binary'))
}

/** RFC 5869 HKDF-SHA256 with an empty salt (HashLen zero bytes), one block: the first 32 bytes of output. */
async function hkdf32(ikm: Uint8Array, info: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const prk = await hmacSha256(new Uint8Array(32), ikm)
  try {
    return await hmacSha256(prk, concat(info, new Uint8Array([1])))
  } finally {
    prk.fill(0)
  }
}

/**
 * Derives both secrets from the password under the given settings (checked first). The master secret exists as bytes
 * only until both are derived, then is zeroed.
 */
export function deriveSecrets(password: string, kdf: KdfSettings): Effect.Effect<DerivedSecrets, UnacceptableKdf> {
  return Effect.gen(function* () {
    const settings = yield* acceptKdf(kdf)
    const bytes = yield* master(password, settings)
    try {
      const auth = yield* Effect.promise(() => hkdf32(bytes, AUTH_INFO))
      const wrappingKey = yield* wrappingKeyOf(bytes).pipe(Effect.orElseSucceed(() => null))
      return { authSecret: toBase64url(auth), wrappingKey, kdf: settings }
    } finally {
      bytes.fill(0)
    }
  })
}

function wrappingKeyOf(bytes: Uint8Array<ArrayBuffer>): Effect.Effect<CryptoKey, CryptoUnavailable> {
  return Effect.flatMap(subtle, () =>
    certain(async (s) => {
      const base = await s.importKey('raw', bytes, 'HKDF', false, ['deriveKey'])
      return s.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: WRAP_INFO },
        base,
        { name: 'AES-GCM', length: 256 },
        false,
        ['encrypt', 'decrypt', 'unwrapKey'],
      )
    }),
  )
}
