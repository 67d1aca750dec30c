import {
  createDecipheriv,
  createPublicKey,
  createHash,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes as nodeRandomBytes,
} from 'node:crypto'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Cause, Effect, Exit } from 'effect'
import {
  ENVELOPE_MAX_LENGTH,
  ENVELOPE_PATTERN,
  MESSAGE_MAX_LENGTH,
  PUBLIC_KEY_PATTERN,
  WRAPPED_KEY_MAX_LENGTH,
  WRAPPED_KEY_PATTERN,
  WRAPPED_KEY_V2_PATTERN,
  envelopeLength,
} from '../../src/api/contract/encryption'
import { ConversationKeyCache } from '../../src/crypto/conversation-key-cache'
import { deriveConversationKey } from '../../src/crypto/conversation-key'
import { fromBase64url, toBase64url, utf8 } from '../../src/crypto/encoding'
import { generateKeyPair, type NewKeyPair } from '../../src/crypto/key-pair'
import { memoryKeyStore } from '../../src/crypto/key-store'
import type { MemberKeys } from '../../src/crypto/keys'
import { decryptMessage, encryptMessage, messageLength, type MessageContext } from '../../src/crypto/messages'
import { safetyNumber } from '../../src/crypto/safety-number'
import { forgetKeys, keysMatch, unlockKeys } from '../../src/crypto/session-keys'
import {
  OWASP_KDF,
  PBKDF2_ITERATIONS,
  passwordWrapper,
  rewrapPrivateKey,
  sealPkcs8,
  sealWithKey,
  sealWithPassword,
  unwrapPrivateKey,
  unwrapPrivateKeyWith,
  wrapPrivateKey,
  type KdfPolicy,
  type KeyWrapper,
} from '../../src/crypto/wrap'
import { deriveSecrets, freshKdf, type DerivedSecrets } from '../../src/crypto/kdf'
import { KDF_CEILING, KDF_DEFAULT, KDF_FLOOR, kdfProblem, type KdfSettings } from '../../src/api/contract/kdf'
import { hashRaw } from '@node-rs/argon2'

// The browser's end-to-end encryption library (src/crypto/) over Node's WebCrypto. Most tests wrap keys at
// a cheap PBKDF2 count through the explicit `kdf` parameter (the app never passes one); the tests named "at OWASP's
// count" run the real 600,000 iterations.

const CHEAP: KdfPolicy = { iterations: 1_000, minIterations: 1_000 }

const succeed = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)
const failure = <A, E>(effect: Effect.Effect<A, E>): Promise<E> => Effect.runPromise(Effect.flip(effect))

const member = (pair: NewKeyPair): MemberKeys => ({ publicKey: pair.publicKey, privateKey: pair.privateKey })

/** Flips one bit of the byte at `index` of a base64url part. */
function flipByte(part: string, index: number): string {
  const bytes = fromBase64url(part)
  if (!bytes) throw new Error('not base64url')
  bytes[index] = (bytes[index] ?? 0) ^ 0x01
  return toBase64url(bytes)
}

function replacePart(text: string, index: number, change: (part: string) => string): string {
  const parts = text.split('.')
  parts[index] = change(parts[index] ?? '')
  return parts.join('.')
}

let ann: NewKeyPair
let bob: NewKeyPair
let cat: NewKeyPair
/** Two wk2 wrappers over random AES keys (the app's come from the password, tested in "the password split"). */
let wrapper: KeyWrapper
let otherWrapper: KeyWrapper
const randomWrapper = async (binding: string): Promise<KeyWrapper> => ({
  key: await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt', 'unwrapKey']),
  binding,
})
beforeAll(async () => {
  ;[wrapper, otherWrapper] = await Promise.all([randomWrapper('kdf.one'), randomWrapper('kdf.two')])
  ;[ann, bob, cat] = await Promise.all([
    succeed(generateKeyPair(sealWithPassword('ann-Password1', CHEAP))),
    succeed(generateKeyPair(sealWithPassword('bob-Password1', CHEAP))),
    succeed(generateKeyPair(sealWithPassword('cat-Password1', CHEAP))),
  ])
})

describe('base64url', () => {
  it('round-trips every length and agrees with Node', () => {
    for (let length = 0; length < 70; length++) {
      const bytes = new Uint8Array(nodeRandomBytes(length))
      const text = toBase64url(bytes)
      expect(text).toBe(Buffer.from(bytes).toString('base64url'))
      expect(fromBase64url(text)).toEqual(bytes)
    }
  })

  it('refuses padding, the other alphabet, impossible lengths and stray bits', () => {
    for (const text of ['AA==', 'A+/A', 'AAAAA', 'AB', 'AAB', ' AAA', 'AA.A'])
      expect(fromBase64url(text)).toBeUndefined()
    expect(fromBase64url('AA')).toEqual(new Uint8Array([0]))
  })
})

describe('key pair', () => {
  it('gives a raw P-256 public key, a wrapped private key and a non-extractable private key', async () => {
    expect(ann.publicKey).toMatch(PUBLIC_KEY_PATTERN)
    expect(fromBase64url(ann.publicKey)?.[0]).toBe(0x04)
    expect(ann.wrappedPrivateKey.startsWith('wk1.1000.')).toBe(true)
    expect(ann.privateKey.extractable).toBe(false)
    expect(ann.privateKey.type).toBe('private')
    await expect(crypto.subtle.exportKey('pkcs8', ann.privateKey)).rejects.toThrow()
    await expect(crypto.subtle.exportKey('jwk', ann.privateKey)).rejects.toThrow()
  })

  it('gives each member a different key', () => {
    expect(new Set([ann.publicKey, bob.publicKey, cat.publicKey]).size).toBe(3)
  })
})

describe('wrapping the private key', () => {
  it("at OWASP's count: at least 600,000 iterations, and it unwraps to the same, non-extractable key", async () => {
    const pair = await succeed(generateKeyPair(sealWithPassword('Sparrow2026')))
    expect(pair.wrappedPrivateKey).toMatch(WRAPPED_KEY_PATTERN)
    expect(pair.wrappedPrivateKey.length).toBeLessThanOrEqual(300)
    const iterations = Number(pair.wrappedPrivateKey.split('.')[1])
    expect(iterations).toBeGreaterThanOrEqual(600_000)
    expect(OWASP_KDF.iterations).toBe(PBKDF2_ITERATIONS)

    const unwrapped = await succeed(unwrapPrivateKey(pair.wrappedPrivateKey, 'Sparrow2026'))
    expect(unwrapped.extractable).toBe(false)
    await expect(crypto.subtle.exportKey('pkcs8', unwrapped)).rejects.toThrow()
    await expect(crypto.subtle.exportKey('jwk', unwrapped)).rejects.toThrow()
    // The same private key: what the generated key encrypts, the unwrapped one decrypts.
    const context = { conversationId: 'c1', senderId: 'me' }
    const sent = await succeed(
      Effect.flatMap(deriveConversationKey(member(pair), bob.publicKey), (key) =>
        encryptMessage(key, 'hello', context),
      ),
    )
    const key = await succeed(
      deriveConversationKey({ publicKey: pair.publicKey, privateKey: unwrapped }, bob.publicKey),
    )
    expect(await succeed(decryptMessage(key, sent, context))).toBe('hello')
  })

  it('by default refuses a wrapped key whose count is below the floor (downgrade) or above the ceiling', async () => {
    const cheap = await failure(unwrapPrivateKey(ann.wrappedPrivateKey, 'ann-Password1'))
    expect(cheap._tag).toBe('MalformedKey')
    const huge = replacePart(ann.wrappedPrivateKey, 1, () => '99999999')
    expect((await failure(unwrapPrivateKey(huge, 'ann-Password1', CHEAP)))._tag).toBe('MalformedKey')
    expect((await failure(rewrapPrivateKey(ann.wrappedPrivateKey, { password: 'ann-Password1' }, wrapper)))._tag).toBe(
      'MalformedKey',
    )
  })

  it('unwraps with the right password into a non-extractable ECDH key for deriveBits and deriveKey', async () => {
    const key = await succeed(unwrapPrivateKey(ann.wrappedPrivateKey, 'ann-Password1', CHEAP))
    expect(key.extractable).toBe(false)
    expect(key.algorithm).toMatchObject({ name: 'ECDH', namedCurve: 'P-256' })
    expect([...key.usages].sort()).toEqual(['deriveBits', 'deriveKey'])
    await expect(crypto.subtle.exportKey('pkcs8', key)).rejects.toThrow()
  })

  it('fails with WrongPassword for a wrong password', async () => {
    const error = await failure(unwrapPrivateKey(ann.wrappedPrivateKey, 'ann-Password2', CHEAP))
    expect(error._tag).toBe('WrongPassword')
    expect(error.message).not.toContain('ann-Password')
  })

  it('fails with WrongPassword when the ciphertext, IV, salt or count was changed (all authenticated)', async () => {
    const changed = [
      replacePart(ann.wrappedPrivateKey, 4, (part) => flipByte(part, 10)),
      replacePart(ann.wrappedPrivateKey, 3, (part) => flipByte(part, 0)),
      replacePart(ann.wrappedPrivateKey, 2, (part) => flipByte(part, 3)),
      replacePart(ann.wrappedPrivateKey, 1, () => '1001'),
    ]
    for (const wrapped of changed) {
      expect((await failure(unwrapPrivateKey(wrapped, 'ann-Password1', CHEAP)))._tag).toBe('WrongPassword')
    }
  })

  it('fails with MalformedKey for strings it did not make', async () => {
    const [, count, salt, iv, body] = ann.wrappedPrivateKey.split('.')
    const malformed = [
      '',
      'null',
      ann.publicKey,
      `wk2.${count}.${salt}.${iv}.${body}`,
      `wk1.${count}.${salt}.${iv}`,
      `wk1.${count}.${salt}.${iv}.${body}.extra`,
      `wk1.0${count}.${salt}.${iv}.${body}`,
      `wk1.1e4.${salt}.${iv}.${body}`,
      `wk1.${count}.${salt}A.${iv}.${body}`,
      `wk1.${count}.${salt}.${iv?.slice(0, 12)}.${body}`,
      `wk1.${count}.${salt}.${iv}.${body}+`,
      `wk1.${count}.${salt}.${iv}.AAAA`,
      `wk1.${count}.${salt}.${iv}.${body}${'A'.repeat(WRAPPED_KEY_MAX_LENGTH)}`,
    ]
    for (const wrapped of malformed) {
      expect((await failure(unwrapPrivateKey(wrapped, 'ann-Password1', CHEAP)))._tag, wrapped).toBe('MalformedKey')
    }
  })

  it('fails with MalformedKey when the decrypted bytes are not a P-256 private key', async () => {
    const wrapped = await succeed(sealPkcs8(utf8('not a key at all'), 'ann-Password1', CHEAP))
    expect((await failure(unwrapPrivateKey(wrapped, 'ann-Password1', CHEAP)))._tag).toBe('MalformedKey')
    expect((await failure(rewrapPrivateKey(wrapped, { password: 'ann-Password1', kdf: CHEAP }, wrapper)))._tag).toBe('MalformedKey')
  })

  it('uses a fresh salt and IV for every wrap of the same key and password', async () => {
    const pair = await succeed(
      Effect.tryPromise(() => crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])),
    )
    const first = await succeed(wrapPrivateKey(pair.privateKey, 'same', CHEAP))
    const second = await succeed(wrapPrivateKey(pair.privateKey, 'same', CHEAP))
    expect(first.split('.')[2]).not.toBe(second.split('.')[2])
    expect(first.split('.')[3]).not.toBe(second.split('.')[3])
    expect(first.split('.')[4]).not.toBe(second.split('.')[4])
  })

  it('refuses to wrap a non-extractable key (a key in use is re-wrapped from its wrapped form)', async () => {
    expect((await failure(wrapPrivateKey(ann.privateKey, 'x', CHEAP)))._tag).toBe('MalformedKey')
  })

  it("never wraps below the policy's own floor (a programming error, so a defect)", async () => {
    const exit = await Effect.runPromiseExit(sealPkcs8(utf8('x'), 'x', { iterations: 10, minIterations: 1_000 }))
    expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
  })
})

describe('re-wrapping (a legacy account moving over, a password change)', () => {
  it('moves a wk1 key to wk2 under the wrapping key: the same private key, and the history stays readable', async () => {
    const context = { conversationId: 'c1', senderId: 'ann' }
    const before = await succeed(
      Effect.flatMap(deriveConversationKey(member(ann), bob.publicKey), (key) =>
        encryptMessage(key, 'history', context),
      ),
    )
    const rewrapped = await succeed(rewrapPrivateKey(ann.wrappedPrivateKey, { password: 'ann-Password1', kdf: CHEAP }, wrapper))
    expect(rewrapped).toMatch(WRAPPED_KEY_V2_PATTERN)
    expect((await failure(unwrapPrivateKeyWith(rewrapped, otherWrapper)))._tag).toBe('WrongPassword')
    const privateKey = await succeed(unwrapPrivateKeyWith(rewrapped, wrapper))
    expect(privateKey.extractable).toBe(false)
    const key = await succeed(deriveConversationKey({ publicKey: ann.publicKey, privateKey }, bob.publicKey))
    expect(await succeed(decryptMessage(key, before, context))).toBe('history')
  })

  it('moves a wk2 key to another wrapping key (a password change) with a fresh IV', async () => {
    const first = await succeed(rewrapPrivateKey(ann.wrappedPrivateKey, { password: 'ann-Password1', kdf: CHEAP }, wrapper))
    const second = await succeed(rewrapPrivateKey(first, wrapper, otherWrapper))
    expect(second.split('.')[1]).not.toBe(first.split('.')[1])
    expect((await failure(unwrapPrivateKeyWith(second, wrapper)))._tag).toBe('WrongPassword')
    expect(await succeed(keysMatch({ publicKey: ann.publicKey, privateKey: await succeed(unwrapPrivateKeyWith(second, otherWrapper)) }))).toBe(true)
  })

  it('fails with WrongPassword when the old password or key is wrong', async () => {
    const error = await failure(rewrapPrivateKey(ann.wrappedPrivateKey, { password: 'wrong', kdf: CHEAP }, wrapper))
    expect(error._tag).toBe('WrongPassword')
    const wk2 = await succeed(rewrapPrivateKey(ann.wrappedPrivateKey, { password: 'ann-Password1', kdf: CHEAP }, wrapper))
    expect((await failure(rewrapPrivateKey(wk2, otherWrapper, wrapper)))._tag).toBe('WrongPassword')
  })

  it('binds a wk2 key to what its wrapper is for: the same AES key with another binding does not open it', async () => {
    const wk2 = await succeed(rewrapPrivateKey(ann.wrappedPrivateKey, { password: 'ann-Password1', kdf: CHEAP }, wrapper))
    const rebound = { key: wrapper.key, binding: 'kdf.someone-else' }
    expect((await failure(unwrapPrivateKeyWith(wk2, rebound)))._tag).toBe('WrongPassword')
  })
})

describe('the password split (src/crypto/kdf.ts)', () => {
  // Known answers, made once with this code and checked below against an independent derivation.
  const PASSWORD = 'Correct-Horse-9'
  const KNOWN: KdfSettings = { algorithm: 'argon2id', salt: 'AAECAwQFBgcICQoLDA0ODw', ...KDF_FLOOR }
  const KNOWN_AUTH_SECRET = 'qKgTkx8HqVvckOjgyVuKPhWr_3ZdcHblFFSXd4fqDqg'
  const KNOWN_PUBLIC_KEY = 'BIlgEvZVyd09IsPoeBQ3eTxSqbpUFlA4A_FVgLxizddFydPYd3FK_MceyuFgcVSWF4Jt1kBftzibXkHzGaW57lc'
  const KNOWN_WK2 =
    'wk2.9_HPUURD0Eq944N8.bnv0ZIAW83iFaIEDyinMGRMswqbPFX8nawHHJKKaUvgV6_Vb25n5S6xou1RwbRtC5U-b6lKk-aQLgum9aAMdA1y4UB__8C68X3FRwJJ3UFTIUc6xb_Z2QLce7XlsrE8_T6iI67w2cOINCnX7EDNDKGVNdPvTm7zYBzhfLZsENDdCdx8wcFchoPHgp5Kz2E_xEV8g7PldN0yFqQ'
  let known: DerivedSecrets
  beforeAll(async () => {
    known = await succeed(deriveSecrets(PASSWORD, KNOWN))
  })

  it('gives the known authentication secret, which is HKDF-SHA256 of argon2id as an independent implementation computes it', async () => {
    expect(known.authSecret).toBe(KNOWN_AUTH_SECRET)
    const master = await hashRaw(PASSWORD, {
      salt: Buffer.from(KNOWN.salt, 'base64url'),
      memoryCost: KNOWN.memory,
      timeCost: KNOWN.iterations,
      parallelism: 1,
      outputLen: 64,
    })
    const auth = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'wren auth secret v1', 32)).toString('base64url')
    expect(auth).toBe(KNOWN_AUTH_SECRET)
    // The wrapping key is the other label's output: importing those bytes opens the known wk2 key.
    const wrapBytes = new Uint8Array(hkdfSync('sha256', master, Buffer.alloc(0), 'wren key wrapping v1', 32))
    const independent = await crypto.subtle.importKey('raw', wrapBytes, 'AES-GCM', false, ['decrypt', 'unwrapKey'])
    const opened = await succeed(unwrapPrivateKeyWith(KNOWN_WK2, { key: independent, binding: `kdf.${KNOWN.salt}` }))
    expect(await succeed(keysMatch({ publicKey: KNOWN_PUBLIC_KEY, privateKey: opened }))).toBe(true)
  })

  it('opens the known wk2 key with the wrapping key, and the authentication secret cannot', async () => {
    const wrapper = await succeed(passwordWrapper(known))
    expect(known.wrappingKey?.extractable).toBe(false)
    const privateKey = await succeed(unwrapPrivateKeyWith(KNOWN_WK2, wrapper))
    expect(await succeed(keysMatch({ publicKey: KNOWN_PUBLIC_KEY, privateKey }))).toBe(true)
    // What the server sees, used as key material or as a password, opens nothing.
    const asKey = await crypto.subtle.importKey('raw', fromBase64url(known.authSecret) ?? new Uint8Array(), 'AES-GCM', false, ['decrypt', 'unwrapKey'])
    expect((await failure(unwrapPrivateKeyWith(KNOWN_WK2, { key: asKey, binding: wrapper.binding })))._tag).toBe('WrongPassword')
    const asPassword = await succeed(deriveSecrets(known.authSecret, KNOWN))
    expect((await failure(unwrapPrivateKeyWith(KNOWN_WK2, await succeed(passwordWrapper(asPassword)))))._tag).toBe('WrongPassword')
  })

  it('gives other secrets for another password or salt, and the same for the password typed decomposed', async () => {
    expect((await succeed(deriveSecrets('Correct-Horse-8', KNOWN))).authSecret).not.toBe(KNOWN_AUTH_SECRET)
    const otherSalt = { ...KNOWN, salt: 'AQECAwQFBgcICQoLDA0ODw' }
    expect((await succeed(deriveSecrets(PASSWORD, otherSalt))).authSecret).not.toBe(KNOWN_AUTH_SECRET)
    const composed = await succeed(deriveSecrets('Caf\u00e9-Horse-9', KNOWN))
    const decomposed = await succeed(deriveSecrets('Cafe\u0301-Horse-9', KNOWN))
    expect(decomposed.authSecret).toBe(composed.authSecret)
  })

  it.each([
    ['memory below the floor (a hostile server making the secret cheap to invert)', { memory: KDF_FLOOR.memory - 1 }],
    ['one pass', { iterations: 1 }],
    ['parallelism 4', { parallelism: 4 }],
    ['memory above the ceiling (a frozen tab)', { memory: KDF_CEILING.memory + 1 }],
    ['too many passes', { iterations: KDF_CEILING.iterations + 1 }],
    ['too much memory times passes', { memory: 262_144, iterations: 2 }],
    ['another algorithm', { algorithm: 'argon2d' }],
    ['a short salt', { salt: 'AAECAwQFBgcICQoLDA0O' }],
  ])('refuses settings with %s before deriving anything', async (_name, change) => {
    const error = await failure(deriveSecrets(PASSWORD, { ...KNOWN, ...change } as KdfSettings))
    expect(error._tag).toBe('UnacceptableKdf')
  })

  it('derives with the default settings and a fresh 16-byte salt each time', () => {
    const [one, two] = [freshKdf(), freshKdf()]
    expect(one).toMatchObject({ algorithm: 'argon2id', ...KDF_DEFAULT })
    expect(fromBase64url(one.salt)?.length).toBe(16)
    expect(one.salt).not.toBe(two.salt)
    expect(kdfProblem(one)).toBeNull()
  })

  it('derives the authentication secret without WebCrypto (plain http signs in), only the wrapping key is missing', async () => {
    vi.stubGlobal('crypto', { getRandomValues: crypto.getRandomValues.bind(crypto) })
    try {
      const secrets = await succeed(deriveSecrets(PASSWORD, KNOWN))
      expect(secrets.authSecret).toBe(KNOWN_AUTH_SECRET)
      expect(secrets.wrappingKey).toBeNull()
      expect((await failure(passwordWrapper(secrets)))._tag).toBe('CryptoUnavailable')
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe('messages', () => {
  let annToBob: CryptoKey
  let bobToAnn: CryptoKey
  let catToAnn: CryptoKey
  const fromAnn: MessageContext = { conversationId: 'conversation-1', senderId: 'ann-id' }
  const fromBob: MessageContext = { conversationId: 'conversation-1', senderId: 'bob-id' }

  beforeAll(async () => {
    annToBob = await succeed(deriveConversationKey(member(ann), bob.publicKey))
    bobToAnn = await succeed(deriveConversationKey(member(bob), ann.publicKey))
    catToAnn = await succeed(deriveConversationKey(member(cat), ann.publicKey))
  })

  it('gives a non-extractable AES-GCM conversation key', async () => {
    expect(annToBob.extractable).toBe(false)
    expect(annToBob.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 })
    await expect(crypto.subtle.exportKey('raw', annToBob)).rejects.toThrow()
  })

  it('round-trips both ways, and each sender reads their own messages', async () => {
    const hello = await succeed(encryptMessage(annToBob, 'Hello Bob 👋', fromAnn))
    expect(hello).toMatch(ENVELOPE_PATTERN)
    expect(hello).not.toContain('Hello')
    expect(await succeed(decryptMessage(bobToAnn, hello, fromAnn))).toBe('Hello Bob 👋')
    expect(await succeed(decryptMessage(annToBob, hello, fromAnn))).toBe('Hello Bob 👋')

    const reply = await succeed(encryptMessage(bobToAnn, 'Hi Ann, ça va ? 日本語', fromBob))
    expect(await succeed(decryptMessage(annToBob, reply, fromBob))).toBe('Hi Ann, ça va ? 日本語')
    expect(await succeed(decryptMessage(bobToAnn, reply, fromBob))).toBe('Hi Ann, ça va ? 日本語')
  })

  it('gives two different envelopes for the same text (a fresh IV each time)', async () => {
    const first = await succeed(encryptMessage(annToBob, 'same', fromAnn))
    const second = await succeed(encryptMessage(annToBob, 'same', fromAnn))
    expect(first).not.toBe(second)
    expect(first.split('.')[1]).not.toBe(second.split('.')[1])
  })

  it('refuses an envelope replayed into another conversation or credited to the other member', async () => {
    const envelope = await succeed(encryptMessage(annToBob, 'only here', fromAnn))
    const moved = await failure(decryptMessage(bobToAnn, envelope, { ...fromAnn, conversationId: 'conversation-2' }))
    expect(moved).toMatchObject({ _tag: 'UndecryptableMessage', reason: 'rejected' })
    const misattributed = await failure(decryptMessage(bobToAnn, envelope, fromBob))
    expect(misattributed).toMatchObject({ _tag: 'UndecryptableMessage', reason: 'rejected' })
  })

  it('refuses a flipped byte anywhere in the ciphertext, tag or IV', async () => {
    const envelope = await succeed(encryptMessage(annToBob, 'do not touch', fromAnn))
    const ciphertextBytes = fromBase64url(envelope.split('.')[2] ?? '')?.length ?? 0
    const tampered = [
      replacePart(envelope, 2, (part) => flipByte(part, 0)),
      replacePart(envelope, 2, (part) => flipByte(part, ciphertextBytes - 1)),
      replacePart(envelope, 1, (part) => flipByte(part, 5)),
    ]
    for (const changed of tampered) {
      expect(await failure(decryptMessage(bobToAnn, changed, fromAnn))).toMatchObject({ reason: 'rejected' })
    }
  })

  it("refuses an envelope under another pair's key (a third member cannot read it)", async () => {
    const envelope = await succeed(encryptMessage(annToBob, 'private', fromAnn))
    expect(await failure(decryptMessage(catToAnn, envelope, fromAnn))).toMatchObject({ reason: 'rejected' })
  })

  it('calls malformed what is not an envelope of a version it knows (m1, m2), without trying to decrypt it', async () => {
    const envelope = await succeed(encryptMessage(annToBob, 'x', fromAnn))
    const [, iv, body] = envelope.split('.')
    const malformed = [
      '',
      'hello',
      `m3.${iv}.${body}`,
      `m1.${iv}`,
      `m1.${iv}.${body}.x`,
      `m1.${iv}A.${body}`,
      `m1.${iv}.${body}=`,
      `m1.${iv}.AAAA`,
      `m1.${iv}.${'A'.repeat(ENVELOPE_MAX_LENGTH)}`,
    ]
    for (const text of malformed) {
      expect(await failure(decryptMessage(bobToAnn, text, fromAnn)), text).toMatchObject({ reason: 'malformed' })
    }
  })

  it('keeps the envelope within the bound the server enforces, for the longest message of 4-byte emoji', async () => {
    const longest = '😀'.repeat(MESSAGE_MAX_LENGTH)
    expect(messageLength(longest)).toBe(MESSAGE_MAX_LENGTH)
    expect(longest.length).toBe(2 * MESSAGE_MAX_LENGTH)
    const envelope = await succeed(encryptMessage(annToBob, longest, fromAnn))
    expect(envelope.length).toBe(ENVELOPE_MAX_LENGTH)
    expect(ENVELOPE_MAX_LENGTH).toBe(10_708)
    expect(envelope).toMatch(ENVELOPE_PATTERN)
    expect(await succeed(decryptMessage(bobToAnn, envelope, fromAnn))).toBe(longest)

    const ascii = 'a'.repeat(MESSAGE_MAX_LENGTH)
    expect((await succeed(encryptMessage(annToBob, ascii, fromAnn))).length).toBe(envelopeLength(MESSAGE_MAX_LENGTH))
  })

  it('round-trips random text of every kind of character, at random lengths', async () => {
    // Code points from every UTF-8 width: ASCII, 2-byte, 3-byte (not surrogates), 4-byte.
    const ranges = [
      [0x20, 0x7e],
      [0x80, 0x7ff],
      [0x800, 0xd7ff],
      [0x10000, 0x10ffff],
    ] as const
    for (let round = 0; round < 40; round++) {
      const length = Math.floor(Math.random() * 300)
      let text = ''
      for (let i = 0; i < length; i++) {
        const [low, high] = ranges[Math.floor(Math.random() * ranges.length)] ?? ranges[0]
        text += String.fromCodePoint(low + Math.floor(Math.random() * (high - low + 1)))
      }
      const envelope = await succeed(encryptMessage(annToBob, text, fromAnn))
      expect(envelope.length).toBe(envelopeLength(utf8(text).length))
      expect(await succeed(decryptMessage(bobToAnn, envelope, fromAnn))).toBe(text)
    }
  })

  it('predicts the envelope length exactly from the UTF-8 size', async () => {
    for (const text of ['', 'a', 'ab', 'abc', 'é', '€', '😀', 'a😀é€', 'x'.repeat(47)]) {
      const envelope = await succeed(encryptMessage(annToBob, text, fromAnn))
      expect(envelope.length, text).toBe(envelopeLength(utf8(text).length))
    }
  })

  it('refuses a message one character over the limit', async () => {
    const error = await failure(encryptMessage(annToBob, '😀'.repeat(MESSAGE_MAX_LENGTH + 1), fromAnn))
    expect(error).toMatchObject({ _tag: 'MessageTooLong', length: MESSAGE_MAX_LENGTH + 1 })
  })

  it('refuses a public key that is not a P-256 point in our format', async () => {
    const offCurve = toBase64url(new Uint8Array([0x04, ...new Uint8Array(64).fill(7)]))
    const spki = Buffer.from(
      await crypto.subtle.exportKey(
        'spki',
        (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])).publicKey,
      ),
    ).toString('base64url')
    for (const key of ['', 'null', offCurve, spki, `${bob.publicKey}=`, bob.publicKey.slice(1)]) {
      expect((await failure(deriveConversationKey(member(ann), key)))._tag, key).toBe('InvalidPublicKey')
    }
  })

  it("follows the documented derivation (checked against Node's own ECDH, HKDF and AES-GCM)", async () => {
    // Two members whose private keys the test knows, so Node can compute the key independently.
    const importJwk = async () => {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      const jwk = privateKey.export({ format: 'jwk' })
      const key = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDH', namedCurve: 'P-256' }, false, [
        'deriveBits',
      ])
      const raw = new Uint8Array([
        0x04,
        ...Buffer.from(jwk.x ?? '', 'base64url'),
        ...Buffer.from(jwk.y ?? '', 'base64url'),
      ])
      return { node: privateKey, keys: { publicKey: toBase64url(raw), privateKey: key }, raw }
    }
    const [me, them] = await Promise.all([importJwk(), importJwk()])
    const conversationKey = await succeed(deriveConversationKey(me.keys, them.keys.publicKey))
    const context = { conversationId: 'c-42', senderId: 'u-7' }
    const envelope = await succeed(encryptMessage(conversationKey, 'interop', context))

    const secret = diffieHellman({ privateKey: me.node, publicKey: createPublicKey(them.node) })
    const [low, high] =
      Buffer.compare(Buffer.from(me.raw), Buffer.from(them.raw)) <= 0 ? [me.raw, them.raw] : [them.raw, me.raw]
    const info = Buffer.concat([Buffer.from('wren/dm/conversation-key/v1'), low, high])
    const key = Buffer.from(hkdfSync('sha256', secret, Buffer.from('wren/dm/v1'), info, 32))

    const [, iv, body] = envelope.split('.')
    const sealed = Buffer.from(body ?? '', 'base64url')
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'))
    decipher.setAAD(Buffer.from(JSON.stringify(['wren/dm/m1', 'c-42', 'u-7'])))
    decipher.setAuthTag(sealed.subarray(sealed.length - 16))
    const plaintext = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()])
    expect(plaintext.toString('utf8')).toBe('interop')
  })
})

describe('conversation key cache', () => {
  it('derives once per other public key and shares concurrent asks', async () => {
    const cache = new ConversationKeyCache()
    const [first, second] = await Promise.all([
      succeed(cache.get(member(ann), bob.publicKey)),
      succeed(cache.get(member(ann), bob.publicKey)),
    ])
    expect(first).toBe(second)
    expect(await succeed(cache.get(member(ann), bob.publicKey))).toBe(first)
    expect(cache.size).toBe(1)
    const withCat = await succeed(cache.get(member(ann), cat.publicKey))
    expect(withCat).not.toBe(first)
    expect(cache.size).toBe(2)
  })

  it('gives keys that work, and starts afresh after clear (logout)', async () => {
    const cache = new ConversationKeyCache()
    const key = await succeed(cache.get(member(ann), bob.publicKey))
    const context = { conversationId: 'c', senderId: 'ann' }
    const envelope = await succeed(encryptMessage(key, 'cached', context))
    const bobKey = await succeed(deriveConversationKey(member(bob), ann.publicKey))
    expect(await succeed(decryptMessage(bobKey, envelope, context))).toBe('cached')
    cache.clear()
    expect(cache.size).toBe(0)
    expect(await succeed(cache.get(member(ann), bob.publicKey))).not.toBe(key)
  })

  it("does not keep a failure, and does not hand one member's keys to another", async () => {
    const cache = new ConversationKeyCache()
    expect((await failure(cache.get(member(ann), 'not-a-key')))._tag).toBe('InvalidPublicKey')
    expect(cache.size).toBe(0)
    const annKey = await succeed(cache.get(member(ann), cat.publicKey))
    const bobKey = await succeed(cache.get(member(bob), cat.publicKey))
    expect(bobKey).not.toBe(annKey)
    expect(cache.size).toBe(1)
  })
})

describe('safety number', () => {
  it('is 12 groups of 5 digits, the same for both members', async () => {
    const forAnn = await succeed(safetyNumber(ann.publicKey, bob.publicKey))
    const forBob = await succeed(safetyNumber(bob.publicKey, ann.publicKey))
    expect(forAnn).toMatch(/^\d{5}( \d{5}){11}$/)
    expect(forBob).toBe(forAnn)
  })

  it('differs for another pair, and when either key changes', async () => {
    const annBob = await succeed(safetyNumber(ann.publicKey, bob.publicKey))
    expect(await succeed(safetyNumber(ann.publicKey, cat.publicKey))).not.toBe(annBob)
    expect(await succeed(safetyNumber(cat.publicKey, bob.publicKey))).not.toBe(annBob)
  })

  it('follows the documented algorithm (SHA-512 over the label and both keys in byte order)', async () => {
    const a = Buffer.from(ann.publicKey, 'base64url')
    const b = Buffer.from(bob.publicKey, 'base64url')
    const [low, high] = Buffer.compare(a, b) <= 0 ? [a, b] : [b, a]
    const digest = createHash('sha512').update('wren/safety-number/v1').update(low).update(high).digest()
    const groups = Array.from({ length: 12 }, (_, i) =>
      String(Number(digest.readUIntBE(i * 5, 5) % 100_000)).padStart(5, '0'),
    )
    expect(await succeed(safetyNumber(ann.publicKey, bob.publicKey))).toBe(groups.join(' '))
  })

  it('refuses an invalid public key', async () => {
    expect((await failure(safetyNumber(ann.publicKey, 'garbage')))._tag).toBe('InvalidPublicKey')
  })
})

// The IndexedDB store needs a browser: tests/browser/key-store.smoke.mjs runs the same contract in Chromium.
describe('key store (in memory)', () => {
  it('saves, loads, forgets one member, and forgets all on logout', async () => {
    const store = memoryKeyStore()
    expect(await succeed(store.load('ann'))).toBeUndefined()
    await succeed(store.save({ userId: 'ann', ...member(ann) }))
    await succeed(store.save({ userId: 'bob', ...member(bob) }))
    const loaded = await succeed(store.load('ann'))
    expect(loaded).toEqual({ userId: 'ann', publicKey: ann.publicKey, privateKey: ann.privateKey })
    expect(loaded?.privateKey.extractable).toBe(false)

    await succeed(store.forget('ann'))
    expect(await succeed(store.load('ann'))).toBeUndefined()
    expect((await succeed(store.load('bob')))?.publicKey).toBe(bob.publicKey)
    await succeed(store.forgetAll())
    expect(await succeed(store.load('bob'))).toBeUndefined()
  })

  it("replaces a member's keys on save, and keeps only the three fields", async () => {
    const store = memoryKeyStore()
    await succeed(store.save({ userId: 'ann', ...member(ann) }))
    await succeed(store.save({ userId: 'ann', ...member(cat), wrappedPrivateKey: 'not kept' } as never))
    expect(await succeed(store.load('ann'))).toEqual({
      userId: 'ann',
      publicKey: cat.publicKey,
      privateKey: cat.privateKey,
    })
  })

  it('refuses to store an extractable private key (a defect)', async () => {
    const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])
    const store = memoryKeyStore()
    const exit = await Effect.runPromiseExit(
      store.save({ userId: 'ann', publicKey: ann.publicKey, privateKey: pair.privateKey }),
    )
    expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
    expect(await succeed(store.load('ann'))).toBeUndefined()
  })
})

describe('session keys', () => {
  const account = () => ({ userId: 'ann', publicKey: ann.publicKey, wrappedPrivateKey: ann.wrappedPrivateKey })

  it('login unwraps, checks the pair and keeps the keys; logout forgets them and the conversation keys', async () => {
    const store = memoryKeyStore()
    const cache = new ConversationKeyCache()
    const keys = await succeed(unlockKeys(account(), { password: 'ann-Password1', kdf: CHEAP }, store))
    expect(keys.privateKey.extractable).toBe(false)
    expect((await succeed(store.load('ann')))?.privateKey).toBe(keys.privateKey)
    await succeed(cache.get(keys, bob.publicKey))
    expect(cache.size).toBe(1)

    await succeed(forgetKeys(store, cache))
    expect(await succeed(store.load('ann'))).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('keeps nothing on a wrong password', async () => {
    const store = memoryKeyStore()
    expect((await failure(unlockKeys(account(), { password: 'nope', kdf: CHEAP }, store)))._tag).toBe('WrongPassword')
    expect(await succeed(store.load('ann'))).toBeUndefined()
  })

  it("refuses a wrapped key served with someone else's public key, and keeps nothing", async () => {
    const store = memoryKeyStore()
    const swapped = { ...account(), publicKey: bob.publicKey }
    expect((await failure(unlockKeys(swapped, { password: 'ann-Password1', kdf: CHEAP }, store)))._tag).toBe('MalformedKey')
    expect(await succeed(store.load('ann'))).toBeUndefined()
    expect(await succeed(keysMatch(member(ann)))).toBe(true)
    expect(await succeed(keysMatch({ publicKey: cat.publicKey, privateKey: ann.privateKey }))).toBe(false)
  })
})

describe('without WebCrypto (a page served over plain http)', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('fails every operation with CryptoUnavailable instead of a TypeError', async () => {
    const key = await succeed(deriveConversationKey(member(ann), bob.publicKey))
    // Browsers keep getRandomValues in insecure contexts and hide only subtle.
    vi.stubGlobal('crypto', { getRandomValues: crypto.getRandomValues.bind(crypto) })
    const context = { conversationId: 'c', senderId: 'ann' }
    const failures = [
      await failure(generateKeyPair(sealWithPassword('x', CHEAP))),
      await failure(generateKeyPair(sealWithKey(wrapper))),
      await failure(unwrapPrivateKey(ann.wrappedPrivateKey, 'ann-Password1', CHEAP)),
      await failure(deriveConversationKey(member(ann), bob.publicKey)),
      await failure(encryptMessage(key, 'x', context)),
      await failure(safetyNumber(ann.publicKey, bob.publicKey)),
    ]
    for (const error of failures) expect(error._tag).toBe('CryptoUnavailable')
  })
})
