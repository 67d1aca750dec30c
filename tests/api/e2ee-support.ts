import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { api, registerMember } from './harness'

/**
 * What a browser does for direct messages, with node's WebCrypto, in the exact formats of
 * src/api/contract/encryption.ts: an ECDH P-256 key pair (the public key the raw point in base64url), the private key
 * wrapped as `wk2.<iv>.<ciphertext>` under an AES key the password gives, and per message AES-GCM as
 * `m1.<iv>.<ciphertext>`. The server must only ever see the outputs. The wrapping key here is a plain HKDF of the
 * password (the app's is argon2id then HKDF, src/crypto/kdf.ts; the server cannot tell), and the message key a plain
 * HKDF of the ECDH secret (the app's binds more). `wrapLegacyKey` makes the old `wk1.` format under PBKDF2 at the
 * server's old floor (100,000 iterations), for accounts from before the split.
 */

const subtle = globalThis.crypto.subtle
const b64 = (bytes: ArrayBuffer | Uint8Array) =>
  Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('base64url')
const unb64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'))
const random = (n: number) => globalThis.crypto.getRandomValues(new Uint8Array(n))
const ECDH = { name: 'ECDH', namedCurve: 'P-256' } as const
/** The PBKDF2 count of legacy test keys (the least the old pattern accepts). */
export const TEST_ITERATIONS = 100_000
const WK2_DATA = new TextEncoder().encode('wk2|test')

export interface BrowserKeys {
  publicKey: string
  privateKey: string
  keyPair: CryptoKeyPair
}

async function passwordKey(password: string, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const base = await subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveKey'])
  return subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations: TEST_ITERATIONS },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  )
}

async function wrappingKey(password: string): Promise<CryptoKey> {
  const base = await subtle.importKey('raw', new TextEncoder().encode(password), 'HKDF', false, ['deriveKey'])
  return subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode('test wrapping') },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  )
}

/** A new key pair: the public key as base64url of the raw point, the private key wrapped as `wk2.`. */
export async function makeKeys(password: string): Promise<BrowserKeys> {
  const keyPair = await subtle.generateKey(ECDH, true, ['deriveBits'])
  return {
    publicKey: b64(await subtle.exportKey('raw', keyPair.publicKey)),
    privateKey: await wrapPrivateKey(keyPair.privateKey, password),
    keyPair,
  }
}

export async function wrapPrivateKey(privateKey: CryptoKey, password: string): Promise<string> {
  const iv = random(12)
  const key = await wrappingKey(password)
  const wrapped = await subtle.wrapKey('pkcs8', privateKey, key, { name: 'AES-GCM', iv, additionalData: WK2_DATA })
  return `wk2.${b64(iv)}.${b64(wrapped)}`
}

/** The legacy format, as browsers stored it before the split: `wk1.<iterations>.<salt>.<iv>.<ciphertext>`. */
export async function wrapLegacyKey(privateKey: CryptoKey, password: string): Promise<string> {
  const salt = random(16)
  const iv = random(12)
  const wrapped = await subtle.wrapKey('pkcs8', privateKey, await passwordKey(password, salt), { name: 'AES-GCM', iv })
  return `wk1.${TEST_ITERATIONS}.${b64(salt)}.${b64(iv)}.${b64(wrapped)}`
}

/** Opens either format (wk1 under the password, wk2 under its test wrapping key). */
export async function unwrapPrivateKey(wrapped: string, password: string): Promise<CryptoKey> {
  if (wrapped.startsWith('wk2.')) {
    const [, iv = '', key = ''] = wrapped.split('.')
    return subtle.unwrapKey(
      'pkcs8',
      unb64(key),
      await wrappingKey(password),
      { name: 'AES-GCM', iv: unb64(iv), additionalData: WK2_DATA },
      ECDH,
      true,
      ['deriveBits'],
    )
  }
  const [, , salt = '', iv = '', key = ''] = wrapped.split('.')
  return subtle.unwrapKey(
    'pkcs8',
    unb64(key),
    await passwordKey(password, unb64(salt)),
    { name: 'AES-GCM', iv: unb64(iv) },
    ECDH,
    true,
    ['deriveBits'],
  )
}

async function messageKey(own: CryptoKey, theirPublic: string): Promise<CryptoKey> {
  const theirs = await subtle.importKey('raw', unb64(theirPublic), ECDH, false, [])
  const secret = await subtle.deriveBits({ name: 'ECDH', public: theirs }, own, 256)
  const hkdf = await subtle.importKey('raw', secret, 'HKDF', false, ['deriveKey'])
  return subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: new TextEncoder().encode('wren-dm-v1') },
    hkdf,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  )
}

/** The envelope a browser sends: `m1.<iv>.<ciphertext and tag>`, base64url. */
export async function encrypt(text: string, own: CryptoKey, theirPublic: string): Promise<string> {
  const iv = random(12)
  const ct = await subtle.encrypt({ name: 'AES-GCM', iv }, await messageKey(own, theirPublic), new TextEncoder().encode(text))
  return `m1.${b64(iv)}.${b64(ct)}`
}

export async function decrypt(envelope: string, own: CryptoKey, theirPublic: string): Promise<string> {
  const [, iv = '', ct = ''] = envelope.split('.')
  const plain = await subtle.decrypt({ name: 'AES-GCM', iv: unb64(iv) }, await messageKey(own, theirPublic), unb64(ct))
  return new TextDecoder().decode(plain)
}

// ---- shapes only, for tests about rules rather than cryptography -----------------------------------------------

/** A key-shaped public key: 0x04 and 64 random bytes, base64url (the server cannot tell it from a real one). */
export function fakePublicKey(): string {
  return Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString('base64url')
}

/** A wrapped-key-shaped string: `wk2.`, a random IV and 154 bytes (PKCS#8 of P-256 and the tag). */
export function fakeWrappedKey(): string {
  const part = (n: number) => randomBytes(n).toString('base64url')
  return `wk2.${part(12)}.${part(154)}`
}

/** Key-shaped strings in the exact formats (the server cannot tell them from real ones, and need not). */
export function fakeKeys() {
  return { publicKey: fakePublicKey(), privateKey: fakeWrappedKey() }
}

/** An envelope-shaped string with random bytes where the ciphertext and tag would be (at least the 16-byte tag). */
export function fakeEnvelope(bytes = 40): string {
  return `m1.${randomBytes(12).toString('base64url')}.${randomBytes(Math.max(16, bytes)).toString('base64url')}`
}

/** A member registered with (fake) keys, able to send and receive. */
export function keyedMember(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  return registerMember(app, { ...fakeKeys(), ...overrides })
}

export async function startConversation(app: FastifyInstance, token: string, recipientId: string) {
  return api(app, 'POST', '/api/messages/conversations', { token, body: { recipientId } })
}

export async function send(app: FastifyInstance, token: string, conversationId: string, content = fakeEnvelope()) {
  return api(app, 'POST', `/api/messages/conversations/${conversationId}/messages`, { token, body: { content } })
}
