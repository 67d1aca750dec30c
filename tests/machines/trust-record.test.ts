import { createDecipheriv, createPrivateKey, createPublicKey, diffieHellman, hkdfSync } from 'node:crypto'
import { Effect } from 'effect'
import { describe, expect, it } from 'vitest'
import { TRUST_RECORD_MAX_LENGTH, TRUST_RECORD_PATTERN } from '../../src/api/contract/trust'
import { fromBase64url, toBase64url } from '../../src/crypto/encoding'
import { generateKeyPair } from '../../src/crypto/key-pair'
import { sealWithPassword } from '../../src/crypto/wrap'
import type { MemberKeys } from '../../src/crypto/keys'
import { deriveSelfKey, openTrustRecord, sealTrustRecord, type TrustRecord } from '../../src/crypto/trust-record'

// Trust records (src/crypto/trust-record.ts): sealed under a self key only the member's own private key derives,
// bound to owner and contact, so the server that stores them can neither read nor forge nor move them.

const succeed = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)
const failure = <A, E>(effect: Effect.Effect<A, E>): Promise<E> => Effect.runPromise(Effect.flip(effect))
const CHEAP = { iterations: 1_000, minIterations: 1_000 }

/** A fixed P-256 key pair, for the known answer. */
const FIXED_JWK = {
  kty: 'EC',
  crv: 'P-256',
  x: 'YS4hnsWov9Ae6xUdOHRF1CPmDHIf2CjWnodikMUkx9w',
  y: 'tfc4kcnlnby1YQ8JiYaiHDTrby_gLJhVeDOX9xgrNyM',
  d: 'ey562IgNHS14tUhgSLfp3jE-Ff0ZQ5PJEN1uQKMbwQo',
}
const FIXED_PUBLIC = toBase64url(
  new Uint8Array([4, ...(fromBase64url(FIXED_JWK.x) ?? []), ...(fromBase64url(FIXED_JWK.y) ?? [])]),
)
const OWNER = '018f0000-0000-7000-8000-00000000000a'
const CONTACT = '018f0000-0000-7000-8000-00000000000b'
const BEN_KEY = `B${'A'.repeat(84)}AA`
const RECORD: TrustRecord = { contactKey: BEN_KEY, verified: true, at: '2026-11-27T03:00:00.000Z' }
const FIXED_IV = new Uint8Array(12).fill(7)

async function fixedMember(): Promise<MemberKeys> {
  const privateKey = await crypto.subtle.importKey('jwk', FIXED_JWK, { name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits', 'deriveKey'])
  return { publicKey: FIXED_PUBLIC, privateKey }
}

async function newMember(): Promise<MemberKeys> {
  const pair = await succeed(generateKeyPair(sealWithPassword('pw', CHEAP)))
  return { publicKey: pair.publicKey, privateKey: pair.privateKey }
}

describe('trust records', () => {
  it('open for the same owner and contact, with what was sealed, in the contract shape', async () => {
    const me = await newMember()
    const key = await succeed(deriveSelfKey(me))
    const sealed = await succeed(sealTrustRecord(key, OWNER, CONTACT, RECORD))
    expect(sealed).toMatch(TRUST_RECORD_PATTERN)
    expect(sealed.length).toBeLessThanOrEqual(TRUST_RECORD_MAX_LENGTH)
    expect(await succeed(openTrustRecord(key, OWNER, CONTACT, sealed))).toEqual(RECORD)
  })

  it('open in another browser of the same member (the self key is derived, not stored)', async () => {
    const me = await fixedMember()
    const sealed = await succeed(sealTrustRecord(await succeed(deriveSelfKey(me)), OWNER, CONTACT, RECORD))
    const otherDevice = await succeed(deriveSelfKey(await fixedMember()))
    expect(await succeed(openTrustRecord(otherDevice, OWNER, CONTACT, sealed))).toEqual(RECORD)
  })

  it('match the known answer, re-derived independently with node:crypto', async () => {
    const sealed = await succeed(sealTrustRecord(await succeed(deriveSelfKey(await fixedMember())), OWNER, CONTACT, RECORD, FIXED_IV))
    // Independently: ECDH with oneself, HKDF with the labels, AES-256-GCM with the additional data.
    const privateKey = createPrivateKey({ key: FIXED_JWK, format: 'jwk' })
    const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: FIXED_JWK.x, y: FIXED_JWK.y }, format: 'jwk' })
    const shared = diffieHellman({ privateKey, publicKey })
    const raw = Buffer.from(fromBase64url(FIXED_PUBLIC) ?? [])
    const aes = Buffer.from(hkdfSync('sha256', shared, 'wren/trust/v1', Buffer.concat([Buffer.from('wren/trust/self-key/v1'), raw]), 32))
    const [, iv = '', body = ''] = sealed.split('.')
    const bytes = Buffer.from(body, 'base64url')
    const decipher = createDecipheriv('aes-256-gcm', aes, Buffer.from(iv, 'base64url'))
    decipher.setAAD(Buffer.concat([Buffer.from('wren/trust-record/v1'), Buffer.from(OWNER), Buffer.from([0]), Buffer.from(CONTACT)]))
    decipher.setAuthTag(bytes.subarray(bytes.length - 16))
    const plain = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8')
    expect(JSON.parse(plain)).toEqual({ key: BEN_KEY, verified: true, at: RECORD.at })
    expect(sealed).toBe(KNOWN_ANSWER)
  })

  it('refuse another owner, another contact, another member\'s self key', async () => {
    const me = await newMember()
    const key = await succeed(deriveSelfKey(me))
    const sealed = await succeed(sealTrustRecord(key, OWNER, CONTACT, RECORD))
    expect((await failure(openTrustRecord(key, CONTACT, OWNER, sealed)))._tag).toBe('TrustRecordRejected')
    expect((await failure(openTrustRecord(key, OWNER, '018f0000-0000-7000-8000-00000000000c', sealed)))._tag).toBe('TrustRecordRejected')
    const server = await succeed(deriveSelfKey(await newMember()))
    expect((await failure(openTrustRecord(server, OWNER, CONTACT, sealed)))._tag).toBe('TrustRecordRejected')
  })

  it('refuse a record a server made up or tampered with', async () => {
    const key = await succeed(deriveSelfKey(await newMember()))
    const sealed = await succeed(sealTrustRecord(key, OWNER, CONTACT, RECORD))
    const [, iv = '', body = ''] = sealed.split('.')
    const flipped = fromBase64url(body) ?? new Uint8Array()
    flipped[3] = (flipped[3] ?? 0) ^ 1
    const forged = await succeed(sealTrustRecord(await succeed(deriveSelfKey(await newMember())), OWNER, CONTACT, RECORD))
    for (const text of [
      `tr1.${iv}.${toBase64url(flipped)}`,
      `tr2.${iv}.${body}`,
      `tr1.${body}.${iv}`,
      `${sealed}.AAAA`,
      'tr1',
      forged,
      `${sealed}${'A'.repeat(600)}`,
    ]) {
      expect((await failure(openTrustRecord(key, OWNER, CONTACT, text)))._tag, text).toBe('TrustRecordRejected')
    }
  })
})

/** The fixed key pair, owner, contact, record and IV above, sealed once and checked above against node:crypto. */
const KNOWN_ANSWER =
  'tr1.BwcHBwcHBwcHBwcH.87uwe9l0OX_oiVL4FHFJql1ki7FZzYpWOGYndaoeLC4LxogZAeve9dbZ27sODJ5QqmXvkzMdJCipF_JUvZgNUrmrKnuFT2Lg-4d6LvDATRXDFX4sezD3V3YLmsBEwoMWDQuh4tNXF1YTSHtJU9qjEvoIjVIDbo4p-LHjN4OF6ZzmDNpJeOLm4OfpDtVrHTR0eD5XPFmR9JLGs1AVfuHYAQo'
