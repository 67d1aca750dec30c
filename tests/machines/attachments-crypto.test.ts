import { createCipheriv, createDecipheriv } from 'node:crypto'
import { Effect, Exit } from 'effect'
import { describe, expect, it } from 'vitest'
import {
  ATTACHMENT_METADATA_MAX_BYTES,
  ENVELOPE_MAX_LENGTH,
  ENVELOPE_PATTERN,
  ENVELOPE_V2_MAX_LENGTH,
  ENVELOPE_V2_PATTERN,
  MESSAGE_MAX_LENGTH,
} from '../../src/api/contract/encryption'
import { type Attachment, openBlob, sealBlob, sealBlobWith } from '../../src/crypto/attachments'
import { fromBase64url, toBase64url, utf8 } from '../../src/crypto/encoding'
import { decryptMessage, encryptMessage, openMessage } from '../../src/crypto/messages'

// The attachment formats of src/crypto/attachments.ts and the m2 envelope of src/crypto/messages.ts, with fixed
// keys and IVs: each output is checked against Node's own AES-GCM (an implementation independent of WebCrypto's use
// here) and against a literal, so a change of format cannot pass unnoticed.

const bytes = (length: number, from = 0) => Uint8Array.from({ length }, (_, i) => (from + i) & 0xff)
const hex = (value: Uint8Array) => Buffer.from(value).toString('hex')

const FILE_KEY = bytes(32)
const FILE_IV = bytes(12, 100)
const PNG_HEAD = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

const CONVERSATION_KEY_BYTES = bytes(32, 200)
const conversationKey = () =>
  crypto.subtle.importKey('raw', CONVERSATION_KEY_BYTES, 'AES-GCM', false, ['encrypt', 'decrypt'])
const CONTEXT = { conversationId: '0190f5b2-0000-7000-8000-000000000001', senderId: '0190f5b2-0000-7000-8000-000000000002' }

const ATTACHMENT: Attachment = {
  blobId: '0190f5b2-0000-7000-8000-0000000000a1',
  key: toBase64url(FILE_KEY),
  kind: 'image',
  mime: 'image/png',
  size: 8,
  width: 640,
  height: 480,
  thumb: { blobId: '0190f5b2-0000-7000-8000-0000000000a2', key: toBase64url(bytes(32, 50)) },
}

function nodeGcm(key: Uint8Array, iv: Uint8Array, aad: string, plaintext: Uint8Array): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(aad))
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()])
}

describe('attachment blobs', () => {
  it('are 0x01 || iv || AES-256-GCM(file) under the fixed label, as Node computes it', async () => {
    const sealed = await Effect.runPromise(sealBlobWith(FILE_KEY, FILE_IV, PNG_HEAD))
    expect(sealed.key).toBe('AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8')
    const expected = Buffer.concat([Buffer.from([1]), FILE_IV, nodeGcm(FILE_KEY, FILE_IV, 'wren/dm/attachment/1', PNG_HEAD)])
    expect(hex(sealed.blob)).toBe(hex(expected))
    expect(hex(sealed.blob)).toBe('016465666768696a6b6c6d6e6fc14b902174e34c944f0159462aba82ceba7624e08f5754da')
    expect(sealed.blob.length).toBe(PNG_HEAD.length + 29)
  })

  it('open with their key, and only with it', async () => {
    const file = bytes(5000, 7)
    const sealed = await Effect.runPromise(sealBlob(file))
    expect(hex(await Effect.runPromise(openBlob(sealed.key, sealed.blob)))).toBe(hex(file))

    const other = await Effect.runPromise(sealBlob(file))
    expect(other.key).not.toBe(sealed.key)
    expect(hex(other.blob.slice(1, 13))).not.toBe(hex(sealed.blob.slice(1, 13)))
    const wrongKey = await Effect.runPromiseExit(openBlob(other.key, sealed.blob))
    expect(Exit.isFailure(wrongKey)).toBe(true)

    const flipped = sealed.blob.slice()
    flipped[40] = (flipped[40] ?? 0) ^ 1
    expect(Exit.isFailure(await Effect.runPromiseExit(openBlob(sealed.key, flipped)))).toBe(true)
    const versioned = sealed.blob.slice()
    versioned[0] = 2
    expect(Exit.isFailure(await Effect.runPromiseExit(openBlob(sealed.key, versioned)))).toBe(true)
    expect(Exit.isFailure(await Effect.runPromiseExit(openBlob('short', sealed.blob)))).toBe(true)
  })

  it('hold none of the file in the clear', async () => {
    const marker = utf8('WREN-IMAGE-MARKER'.repeat(100))
    const sealed = await Effect.runPromise(sealBlob(marker))
    expect(Buffer.from(sealed.blob).includes(Buffer.from('WREN-IMAGE-MARKER'))).toBe(false)
  })
})

describe('envelope m2', () => {
  it('is m2.<iv>.<AES-GCM(attachments JSON, newline, text)>, bound to the conversation and sender', async () => {
    const key = await conversationKey()
    const iv = bytes(12, 30)
    const envelope = await Effect.runPromise(encryptMessage(key, 'a photo', CONTEXT, [ATTACHMENT], iv))
    expect(envelope).toMatch(ENVELOPE_V2_PATTERN)
    const plaintext = `${JSON.stringify([ATTACHMENT])}\na photo`
    const aad = JSON.stringify(['wren/dm/m2', CONTEXT.conversationId, CONTEXT.senderId])
    expect(envelope).toBe(`m2.${toBase64url(iv)}.${toBase64url(nodeGcm(CONVERSATION_KEY_BYTES, iv, aad, utf8(plaintext)))}`)
    expect(envelope.slice(0, 60)).toBe('m2.Hh8gISIjJCUmJygp.Ml_hDP1eT0JDRn_j9_NEu1HuoFPQrAWFfpSwp5S9')

    expect(await Effect.runPromise(openMessage(key, envelope, CONTEXT))).toEqual({ text: 'a photo', attachments: [ATTACHMENT] })
    // Previews read the text only.
    expect(await Effect.runPromise(decryptMessage(key, envelope, CONTEXT))).toBe('a photo')
    // Credited to the other member, it does not open.
    const swapped = { conversationId: CONTEXT.conversationId, senderId: CONTEXT.conversationId }
    expect(Exit.isFailure(await Effect.runPromiseExit(openMessage(key, envelope, swapped)))).toBe(true)
    // Relabelled m1, neither: the version is authenticated through the AAD.
    expect(Exit.isFailure(await Effect.runPromiseExit(openMessage(key, envelope.replace('m2.', 'm1.'), CONTEXT)))).toBe(true)
  })

  it('keeps m1 for text only, and m1 still opens', async () => {
    const key = await conversationKey()
    const iv = bytes(12, 60)
    const envelope = await Effect.runPromise(encryptMessage(key, 'hello', CONTEXT, [], iv))
    expect(envelope).toMatch(ENVELOPE_PATTERN)
    const aad = JSON.stringify(['wren/dm/m1', CONTEXT.conversationId, CONTEXT.senderId])
    expect(envelope).toBe(`m1.${toBase64url(iv)}.${toBase64url(nodeGcm(CONVERSATION_KEY_BYTES, iv, aad, utf8('hello')))}`)
    expect(await Effect.runPromise(openMessage(key, envelope, CONTEXT))).toEqual({ text: 'hello', attachments: [] })
  })

  it('refuses metadata that is not ours even when it authenticates (a buggy or hostile sender)', async () => {
    const key = await conversationKey()
    const iv = bytes(12)
    const seal = async (plaintext: string) => {
      const aad = utf8(JSON.stringify(['wren/dm/m2', CONTEXT.conversationId, CONTEXT.senderId]))
      const ct = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, utf8(plaintext))
      return `m2.${toBase64url(iv)}.${toBase64url(new Uint8Array(ct))}`
    }
    for (const plaintext of [
      'no newline',
      `${JSON.stringify([{ ...ATTACHMENT, kind: 'video' }])}\nkind and type disagree`,
      `${JSON.stringify([{ ...ATTACHMENT, extra: 1 }])}\nunknown field`,
      `${JSON.stringify(Array.from({ length: 5 }, () => ATTACHMENT))}\nfive files`,
      `[]\nno files`,
    ]) {
      expect(Exit.isFailure(await Effect.runPromiseExit(openMessage(key, await seal(plaintext), CONTEXT)))).toBe(true)
    }
  })

  it('stays within ENVELOPE_V2_MAX_LENGTH for the longest text and four maximal attachments', async () => {
    const key = await conversationKey()
    const longest: Attachment = {
      ...ATTACHMENT,
      kind: 'video',
      mime: 'video/quicktime',
      size: Number.MAX_SAFE_INTEGER,
      width: 100_000,
      height: 100_000,
      durationMs: 86_400_000,
    }
    const four = [longest, longest, longest, longest]
    expect(JSON.stringify(four).length).toBe(ATTACHMENT_METADATA_MAX_BYTES)
    const envelope = await Effect.runPromise(encryptMessage(key, '😀'.repeat(MESSAGE_MAX_LENGTH), CONTEXT, four))
    expect(envelope.length).toBe(ENVELOPE_V2_MAX_LENGTH)
    expect(ENVELOPE_V2_MAX_LENGTH).toBe(12_466)
    expect(ENVELOPE_MAX_LENGTH).toBe(10_708)
    // A control character is one byte in the text part (it would be six if the text were JSON-escaped).
    const controls = await Effect.runPromise(encryptMessage(key, '\u0001'.repeat(MESSAGE_MAX_LENGTH), CONTEXT, four))
    expect(controls.length).toBeLessThan(ENVELOPE_V2_MAX_LENGTH)
    expect(fromBase64url(envelope.split('.')[2] ?? '')).toBeDefined()
  })
})

describe('Node reference', () => {
  it('decrypts a blob the browser code made (the format is plain AES-GCM)', async () => {
    const sealed = await Effect.runPromise(sealBlob(PNG_HEAD))
    const key = fromBase64url(sealed.key) ?? new Uint8Array()
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.blob.subarray(1, 13))
    decipher.setAAD(Buffer.from('wren/dm/attachment/1'))
    decipher.setAuthTag(sealed.blob.subarray(sealed.blob.length - 16))
    const plain = Buffer.concat([decipher.update(sealed.blob.subarray(13, sealed.blob.length - 16)), decipher.final()])
    expect(hex(plain)).toBe(hex(PNG_HEAD))
  })
})
