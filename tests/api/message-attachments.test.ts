import { readFile, readdir } from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { Effect } from 'effect'
import type { FastifyInstance } from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { selectRows } from '../../server/db/rows'
import type { Schemas } from '../../server/http/handler-types'
import { MEDIA_CONTENT_SECURITY_POLICY } from '../../server/http/security-headers'
import {
  ATTACHMENT_EMPTY,
  ATTACHMENT_NOT_FOUND,
  UNKNOWN_ATTACHMENT,
} from '../../server/modules/messages/attachments'
import { ATTACHMENTS_NEED_M2 } from '../../server/modules/messages/refusals'
import { ENVELOPE_V2_PATTERN } from '../../src/api/contract/encryption'
import { deriveConversationKey, generateKeyPair } from '../../src/crypto'
import { sealWithKey } from '../../src/crypto/wrap'
import { type Attachment, openBlob, sealBlob } from '../../src/crypto/attachments'
import { encryptMessage, openMessage } from '../../src/crypto/messages'
import { fakeEnvelope, keyedMember, startConversation } from './e2ee-support'
import { api, buildTestApp, type ErrorBody, registerMember, useTestApp } from './harness'

// Encrypted attachments of direct messages (docs/security.md, "Attachments"), on PGlite and, with DATABASE_URL, on
// PostgreSQL. MAX_VIDEO_MB is 1 here so the size limit can be met without megabytes of test data.

const t = useTestApp({ config: { maxVideoMb: 1 } })

const MB = 1024 * 1024
const PHOTO_PATH = new URL('../fixtures/attachment-photo.png', import.meta.url)
/** A tEXt chunk of the fixture (tests/fixtures/make-attachment-fixture.mjs): found only where the plaintext is. */
const MARKER = 'WREN-PLAINTEXT-IMAGE-MARKER'

type Conversation = Schemas['Conversation']
type DirectMessage = Schemas['DirectMessage']

async function pair() {
  const a = await keyedMember(t.app, { displayName: 'Ann Sender' })
  const b = await keyedMember(t.app, { displayName: 'Bea Recipient' })
  const res = await startConversation(t.app, a.token, b.user.id)
  expect(res.statusCode).toBe(201)
  return { a, b, conversation: res.json<{ conversation: Conversation }>().conversation }
}

function upload(token: string, conversationId: string, bytes: Uint8Array | Buffer, app: FastifyInstance = t.app) {
  return app.inject({
    method: 'POST',
    url: `/api/messages/conversations/${conversationId}/attachments`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    payload: Buffer.from(bytes),
  })
}

async function uploaded(token: string, conversationId: string, bytes: Uint8Array | Buffer = randomBlob()) {
  const res = await upload(token, conversationId, bytes)
  expect(res.statusCode, res.body).toBe(201)
  return res.json<Schemas['MessageAttachmentResponse']>().attachment
}

const download = (token: string, id: string) => api(t.app, 'GET', `/api/messages/attachments/${id}`, { token })

/** Blob-shaped bytes (the server cannot tell them from an encrypted file, and need not). */
const randomBlob = (size = 300) => Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(size)))

/** An m2-shaped envelope: the server checks the shape only. */
const fakeEnvelopeV2 = () => fakeEnvelope(200).replace(/^m1\./, 'm2.')

function sendWith(token: string, conversationId: string, attachmentIds: string[], content = fakeEnvelopeV2()) {
  return api(t.app, 'POST', `/api/messages/conversations/${conversationId}/messages`, {
    token,
    body: { content, attachmentIds },
  })
}

async function sentWith(token: string, conversationId: string, attachmentIds: string[]): Promise<DirectMessage> {
  const res = await sendWith(token, conversationId, attachmentIds)
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ message: DirectMessage }>().message
}

async function storedRow(id: string) {
  const [row] = await selectRows<{ storage_key: string; message_id: string | null; size: number }>(
    t.database.handle.db,
    sql`select storage_key, message_id, size from message_attachments where id = ${id}`,
  )
  return row
}

const fileOf = (key: string) => path.join(t.database.dataDir, 'attachments', ...key.split('/'))

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name))
}

describe('uploading and downloading', () => {
  it('stores the bytes as sent, outside the public media, and serves them to both members once a message names them', async () => {
    const { a, b, conversation } = await pair()
    const bytes = randomBlob(5000)
    const attachment = await uploaded(a.token, conversation.id, bytes)
    expect(attachment.size).toBe(5000)

    const row = await storedRow(attachment.id)
    expect(row?.message_id).toBeNull()
    expect(await readFile(fileOf(row?.storage_key ?? ''))).toEqual(bytes)
    // Never reachable as a public file: not under DATA_DIR/media, and /media knows nothing of it.
    expect((await filesUnder(path.join(t.database.dataDir, 'media'))).some((f) => f.includes('attachments'))).toBe(false)
    expect((await t.app.inject({ method: 'GET', url: `/media/${row?.storage_key}` })).statusCode).toBe(404)

    // Before a message names it: its uploader only.
    expect((await download(a.token, attachment.id)).statusCode).toBe(200)
    expect((await download(b.token, attachment.id)).statusCode).toBe(404)

    await sentWith(a.token, conversation.id, [attachment.id])
    expect((await storedRow(attachment.id))?.message_id).not.toBeNull()
    for (const token of [a.token, b.token]) {
      const res = await download(token, attachment.id)
      expect(res.statusCode).toBe(200)
      expect(res.rawPayload).toEqual(bytes)
      expect(res.headers['content-type']).toBe('application/octet-stream')
      expect(res.headers['cache-control']).toBe('private, no-store')
      expect(res.headers['content-security-policy']).toBe(MEDIA_CONTENT_SECURITY_POLICY)
      expect(res.headers['x-content-type-options']).toBe('nosniff')
    }
  })

  it('answers 404 to a non-member, to an unknown id and without a session 401', async () => {
    const { a, conversation } = await pair()
    const stranger = await keyedMember(t.app)
    const attachment = await uploaded(a.token, conversation.id)
    await sentWith(a.token, conversation.id, [attachment.id])

    const refused = await download(stranger.token, attachment.id)
    expect(refused.statusCode).toBe(404)
    expect(refused.json<ErrorBody>().error).toBe(ATTACHMENT_NOT_FOUND)
    expect((await download(a.token, '0190f5b2-0000-7000-8000-000000000000')).statusCode).toBe(404)
    expect((await download(a.token, 'not-an-id')).statusCode).toBe(404)
    expect((await api(t.app, 'GET', `/api/messages/attachments/${attachment.id}`)).statusCode).toBe(401)
    // Nor can a stranger upload into the conversation.
    const intruder = await upload(stranger.token, conversation.id, randomBlob())
    expect(intruder.statusCode).toBe(404)
  })

  it('refuses a blob over the limit (413), an empty one (400) and a JSON body (415), storing nothing', async () => {
    const { a, conversation } = await pair()
    const before = await filesUnder(path.join(t.database.dataDir, 'attachments'))

    const tooLarge = await upload(a.token, conversation.id, Buffer.alloc(MB + 30))
    expect(tooLarge.statusCode).toBe(413)
    expect(tooLarge.json<ErrorBody>().error).toBe('Attachments must be at most 1 MB')
    // The largest video's blob (the limit plus the format's 29 bytes) is accepted.
    expect((await upload(a.token, conversation.id, Buffer.alloc(MB + 29))).statusCode).toBe(201)

    const empty = await upload(a.token, conversation.id, Buffer.alloc(0))
    expect(empty.statusCode).toBe(400)
    expect(empty.json<ErrorBody>().error).toBe(ATTACHMENT_EMPTY)
    const json = await api(t.app, 'POST', `/api/messages/conversations/${conversation.id}/attachments`, {
      token: a.token,
      body: { bytes: 'x' },
    })
    expect(json.statusCode).toBe(415)
    expect((await filesUnder(path.join(t.database.dataDir, 'attachments'))).length).toBe(before.length + 1)
  })

  it('refuses an upload across a block, either way (403)', async () => {
    const { a, b, conversation } = await pair()
    expect((await api(t.app, 'POST', `/api/blocks/user/${a.user.id}`, { token: b.token })).statusCode).toBe(201)
    const res = await upload(a.token, conversation.id, randomBlob())
    expect(res.statusCode).toBe(403)
    expect(res.json<ErrorBody>().error).toBe("Bea Recipient doesn't accept messages from you")
    const back = await upload(b.token, conversation.id, randomBlob())
    expect(back.statusCode).toBe(403)
  })
})

describe('limits and leftovers', () => {
  let limited: FastifyInstance | undefined
  afterAll(async () => {
    await limited?.close()
  })

  it('counts uploads in the media limits of posts (429), and a refused upload stores nothing', async () => {
    limited = await buildTestApp(t.database, {
      config: { maxVideoMb: 1, rateLimits: true, mediaLimitPerMember: { max: 2, windowMs: 60 * 60_000 } },
      rateLimitNamespace: `attachments-${process.pid}-${Date.now()}`,
    })
    const { a, conversation } = await pair()
    expect((await upload(a.token, conversation.id, randomBlob(), limited)).statusCode).toBe(201)
    expect((await upload(a.token, conversation.id, randomBlob(), limited)).statusCode).toBe(201)
    const before = await filesUnder(path.join(t.database.dataDir, 'attachments'))
    const third = await upload(a.token, conversation.id, randomBlob(), limited)
    expect(third.statusCode).toBe(429)
    expect(third.json<ErrorBody>().error).toMatch(/^Too many media uploads\. Try again in /)
    expect(third.headers['retry-after']).toBeDefined()
    expect(await filesUnder(path.join(t.database.dataDir, 'attachments'))).toEqual(before)
  })

  it('deletes blobs no message named within 24 hours, rows and files, at a later upload', async () => {
    const { a, conversation } = await pair()
    const stale = await uploaded(a.token, conversation.id)
    const fresh = await uploaded(a.token, conversation.id)
    const key = (await storedRow(stale.id))?.storage_key ?? ''
    await t.database.handle.db.execute(
      sql`update message_attachments set created_at = now() - interval '25 hours' where id = ${stale.id}`,
    )
    await uploaded(a.token, conversation.id)
    expect(await storedRow(stale.id)).toBeUndefined()
    await expect(readFile(fileOf(key))).rejects.toMatchObject({ code: 'ENOENT' })
    expect(await storedRow(fresh.id), 'a recent one stays for its send').toBeDefined()
  })
})

describe('naming blobs in a message', () => {
  it("refuses someone else's blob, a blob of another conversation, one already sent, and attachments in an m1 envelope", async () => {
    const { a, b, conversation } = await pair()
    const other = await pair()
    const bobs = await uploaded(b.token, conversation.id)
    const elsewhere = await uploaded(other.a.token, other.conversation.id)
    const mine = await uploaded(a.token, conversation.id)

    for (const ids of [[bobs.id], [mine.id, bobs.id], ['0190f5b2-0000-7000-8000-000000000000'], ['nope']]) {
      const res = await sendWith(a.token, conversation.id, ids)
      expect(res.statusCode, JSON.stringify(ids)).toBe(400)
      expect(res.json<ErrorBody>().error).toBe(UNKNOWN_ATTACHMENT)
    }
    const crossed = await sendWith(other.a.token, conversation.id, [elsewhere.id])
    expect(crossed.statusCode).toBe(404)
    const m1 = await sendWith(a.token, conversation.id, [mine.id], fakeEnvelope())
    expect(m1.statusCode).toBe(400)
    expect(m1.json<ErrorBody>().error).toBe(ATTACHMENTS_NEED_M2)

    // A refused send wrote nothing: the blob is still free, and is then sent once.
    expect((await storedRow(mine.id))?.message_id).toBeNull()
    const history = await api(t.app, 'GET', `/api/messages/conversations/${conversation.id}/messages`, { token: a.token })
    expect(history.json<Schemas['MessagesPage']>().messages).toHaveLength(0)
    await sentWith(a.token, conversation.id, [mine.id])
    const again = await sendWith(a.token, conversation.id, [mine.id])
    expect(again.statusCode).toBe(400)
    expect(again.json<ErrorBody>().error).toBe(UNKNOWN_ATTACHMENT)
  })

  it('deletes the blobs with their message, rows and files, and an edit deletes the blobs it drops', async () => {
    const { a, b, conversation } = await pair()
    const [first, second, third] = [
      await uploaded(a.token, conversation.id),
      await uploaded(a.token, conversation.id),
      await uploaded(a.token, conversation.id),
    ]
    const keys = await Promise.all([first, second, third].map(async (x) => (await storedRow(x.id))?.storage_key ?? ''))
    const message = await sentWith(a.token, conversation.id, [first.id, second.id])

    // The edit keeps the first, drops the second and adds the third.
    const edit = await api(t.app, 'PATCH', `/api/messages/messages/${message.id}`, {
      token: a.token,
      body: { content: fakeEnvelopeV2(), attachmentIds: [first.id, third.id] },
    })
    expect(edit.statusCode, edit.body).toBe(200)
    expect(await storedRow(second.id)).toBeUndefined()
    await expect(readFile(fileOf(keys[1] ?? ''))).rejects.toMatchObject({ code: 'ENOENT' })
    expect((await download(b.token, second.id)).statusCode).toBe(404)
    expect((await download(b.token, third.id)).statusCode).toBe(200)

    const removed = await api(t.app, 'DELETE', `/api/messages/messages/${message.id}`, { token: a.token })
    expect(removed.statusCode).toBe(204)
    for (const [i, attachment] of [first, third].entries()) {
      expect(await storedRow(attachment.id)).toBeUndefined()
      await expect(readFile(fileOf(keys[i === 0 ? 0 : 2] ?? ''))).rejects.toMatchObject({ code: 'ENOENT' })
      expect((await download(a.token, attachment.id)).statusCode).toBe(404)
      expect((await download(b.token, attachment.id)).statusCode).toBe(404)
    }
  })

  it('hides earlier blobs from a member who deleted the conversation for themselves, as their messages', async () => {
    const { a, b, conversation } = await pair()
    const before = await uploaded(a.token, conversation.id)
    await sentWith(a.token, conversation.id, [before.id])
    expect((await api(t.app, 'DELETE', `/api/messages/conversations/${conversation.id}`, { token: b.token })).statusCode).toBe(204)
    expect((await download(b.token, before.id)).statusCode).toBe(404)
    expect((await download(a.token, before.id)).statusCode).toBe(200)
    // A message sent after it shows again, with its blobs.
    await new Promise((resolve) => setTimeout(resolve, 5))
    const after = await uploaded(a.token, conversation.id)
    await sentWith(a.token, conversation.id, [after.id])
    expect((await download(b.token, after.id)).statusCode).toBe(200)
  })
})

describe('no image bytes in the clear', () => {
  it('stores, keeps in rows and answers only ciphertext of a photo, which the recipient opens', async () => {
    const photo = new Uint8Array(await readFile(PHOTO_PATH))
    expect(Buffer.from(photo).includes(MARKER)).toBe(true)

    // Key pairs sealed as wk2 under a throwaway wrapping key: this test reads messages with the unwrapped keys only.
    const wrapper = {
      key: await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt', 'unwrapKey']),
      binding: 'test',
    }
    const [annKeys, beaKeys] = await Promise.all([
      Effect.runPromise(generateKeyPair(sealWithKey(wrapper))),
      Effect.runPromise(generateKeyPair(sealWithKey(wrapper))),
    ])
    const reg = (keys: typeof annKeys) => ({ publicKey: keys.publicKey, privateKey: keys.wrappedPrivateKey })
    const ann = await registerMember(t.app, reg(annKeys))
    const bea = await registerMember(t.app, reg(beaKeys))
    const started = await startConversation(t.app, ann.token, bea.user.id)
    const conversationId = started.json<{ conversation: Conversation }>().conversation.id

    // What the browser does: the photo and a thumbnail, each under its own fresh key, uploaded as blobs.
    const file = await Effect.runPromise(sealBlob(photo))
    const thumbBytes = photo.slice(0, 2000)
    const thumb = await Effect.runPromise(sealBlob(thumbBytes))
    const answers: string[] = []
    const fileRes = await upload(ann.token, conversationId, file.blob)
    const thumbRes = await upload(ann.token, conversationId, thumb.blob)
    answers.push(fileRes.body, thumbRes.body)
    const fileId = fileRes.json<Schemas['MessageAttachmentResponse']>().attachment.id
    const thumbId = thumbRes.json<Schemas['MessageAttachmentResponse']>().attachment.id
    const attachment: Attachment = {
      blobId: fileId,
      key: file.key,
      kind: 'image',
      mime: 'image/png',
      size: photo.length,
      width: 480,
      height: 320,
      thumb: { blobId: thumbId, key: thumb.key },
    }
    const context = { conversationId, senderId: ann.user.id }
    const annKey = await Effect.runPromise(deriveConversationKey({ publicKey: annKeys.publicKey, privateKey: annKeys.privateKey }, beaKeys.publicKey))
    const envelope = await Effect.runPromise(encryptMessage(annKey, 'the photo', context, [attachment]))
    expect(envelope).toMatch(ENVELOPE_V2_PATTERN)
    const sentRes = await sendWith(ann.token, conversationId, [fileId, thumbId], envelope)
    expect(sentRes.statusCode).toBe(201)
    answers.push(sentRes.body)

    // Bea reads the message, opens the envelope with her key, downloads the blob and decrypts it to the photo.
    const page = await api(t.app, 'GET', `/api/messages/conversations/${conversationId}/messages`, { token: bea.token })
    answers.push(page.body)
    const received = page.json<Schemas['MessagesPage']>().messages[0]
    const beaKey = await Effect.runPromise(deriveConversationKey({ publicKey: beaKeys.publicKey, privateKey: beaKeys.privateKey }, annKeys.publicKey))
    const opened = await Effect.runPromise(openMessage(beaKey, received?.content ?? '', context))
    expect(opened.text).toBe('the photo')
    const named = opened.attachments[0]
    const blobRes = await download(bea.token, named?.blobId ?? '')
    const thumbDownload = await download(bea.token, named?.thumb.blobId ?? '')
    expect(blobRes.statusCode).toBe(200)
    const decrypted = await Effect.runPromise(openBlob(named?.key ?? '', new Uint8Array(blobRes.rawPayload)))
    expect(Buffer.from(decrypted)).toEqual(Buffer.from(photo))

    // Every answer, every stored file and every row: the photo's marker and its first bytes appear nowhere.
    const needles = [Buffer.from(MARKER), Buffer.from(photo.subarray(0, 64)), Buffer.from(photo.subarray(4000, 4064))]
    const payloads = [...answers.map((text) => Buffer.from(text)), blobRes.rawPayload, thumbDownload.rawPayload]
    // Mail still on its way (the registration confirmations) would be a half-written file while it is read.
    await t.app.services.jobs.drain()
    for (const file of await filesUnder(t.database.dataDir)) {
      if (file.includes(`${path.sep}db${path.sep}`)) continue
      payloads.push(await readFile(file))
    }
    const rows = await everyRowAsText()
    expect(rows).toContain(fileId)
    payloads.push(Buffer.from(rows))
    // The searches can find what they look for: the photo itself holds every needle.
    for (const needle of needles) expect(Buffer.from(photo).includes(needle)).toBe(true)
    for (const payload of payloads) for (const needle of needles) expect(payload.includes(needle)).toBe(false)
    expect(rows).not.toContain(Buffer.from(photo.subarray(0, 64)).toString('base64url'))
    expect(rows).not.toContain(Buffer.from(photo.subarray(0, 64)).toString('hex'))
  })
})

async function everyRowAsText(): Promise<string> {
  const db = t.database.handle.db
  const tables = await selectRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
  )
  expect(tables.map((r) => r.name)).toContain('message_attachments')
  const dumps: string[] = []
  for (const { name } of tables) {
    const rows = await selectRows<{ row: string }>(db, sql`select t::text as row from ${sql.identifier(name)} t`)
    dumps.push(`${name}: ${rows.map((r) => r.row).join('\n')}`)
  }
  return dumps.join('\n')
}
