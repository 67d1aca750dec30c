import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { api, registerMember } from './harness'

/**
 * What a browser does for direct messages, with node's WebCrypto: an ECDH P-256 key pair, the private key wrapped
 * under a key derived from the password (PBKDF2-SHA256), and per message AES-GCM under a key derived (HKDF) from the
 * two members' ECDH secret. The server must only ever see the outputs. Few PBKDF2 rounds: the server neither knows
 * nor checks the count, and tests should be quick.
 */

const subtle = globalThis.crypto.subtle
const b64 = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('base64')
const unb64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'))
const random = (n: number) => globalThis.crypto.getRandomValues(new Uint8Array(n))
const ECDH = { name: 'ECDH', namedCurve: 'P-256' } as const

export interface BrowserKeys {
  publicKey: string
  privateKey: string
  keyPair: CryptoKeyPair
}

async function passwordKey(password: string, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const base = await subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveKey'])
  return subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations: 1_000 },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  )
}

/** A new key pair: the public key as base64 of the raw point, the private key wrapped as compact JSON. */
export async function makeKeys(password: string): Promise<BrowserKeys> {
  const keyPair = await subtle.generateKey(ECDH, true, ['deriveBits'])
  return {
    publicKey: b64(await subtle.exportKey('raw', keyPair.publicKey)),
    privateKey: await wrapPrivateKey(keyPair.privateKey, password),
    keyPair,
  }
}

export async function wrapPrivateKey(privateKey: CryptoKey, password: string): Promise<string> {
  const salt = random(16)
  const iv = random(12)
  const wrapped = await subtle.wrapKey('pkcs8', privateKey, await passwordKey(password, salt), { name: 'AES-GCM', iv })
  return JSON.stringify({ v: 1, kdf: 'pbkdf2-sha256', i: 1_000, s: b64(salt), iv: b64(iv), k: b64(wrapped) })
}

export async function unwrapPrivateKey(wrapped: string, password: string): Promise<CryptoKey> {
  const w = JSON.parse(wrapped) as { s: string; iv: string; k: string }
  return subtle.unwrapKey(
    'pkcs8',
    unb64(w.k),
    await passwordKey(password, unb64(w.s)),
    { name: 'AES-GCM', iv: unb64(w.iv) },
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

/** The envelope a browser sends: version, a fresh IV, the AES-GCM ciphertext, base64 in compact JSON. */
export async function encrypt(text: string, own: CryptoKey, theirPublic: string): Promise<string> {
  const iv = random(12)
  const ct = await subtle.encrypt({ name: 'AES-GCM', iv }, await messageKey(own, theirPublic), new TextEncoder().encode(text))
  return JSON.stringify({ v: 1, iv: b64(iv), ct: b64(ct) })
}

export async function decrypt(envelope: string, own: CryptoKey, theirPublic: string): Promise<string> {
  const e = JSON.parse(envelope) as { iv: string; ct: string }
  const plain = await subtle.decrypt({ name: 'AES-GCM', iv: unb64(e.iv) }, await messageKey(own, theirPublic), unb64(e.ct))
  return new TextDecoder().decode(plain)
}

// ---- shapes only, for tests about rules rather than cryptography -----------------------------------------------

/** Key-shaped strings (the server cannot tell them from real ones, and need not). */
export function fakeKeys() {
  return {
    publicKey: randomBytes(65).toString('base64'),
    privateKey: JSON.stringify({ v: 1, s: randomBytes(16).toString('base64'), k: randomBytes(150).toString('base64') }),
  }
}

/** An envelope-shaped string with random bytes where the ciphertext would be. */
export function fakeEnvelope(bytes = 40): string {
  return JSON.stringify({ v: 1, iv: randomBytes(12).toString('base64'), ct: randomBytes(bytes).toString('base64') })
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
