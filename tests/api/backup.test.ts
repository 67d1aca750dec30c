import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestSnapshot } from '../../server/backup/control-socket'
import { createBackup } from '../../server/backup/create'
import { restoreBackup } from '../../server/backup/restore'
import { ArchiveFormatError, readTar, TarWriter } from '../../server/backup/tar'
import { buildApp } from '../../server/app'
import { type DatabaseHandle, openDatabase } from '../../server/db/client'
import { users } from '../../server/db/schema'
import { conversations, messageAttachments, messages } from '../../server/db/schema-messages'
import { postMedia, posts } from '../../server/db/schema-posts'
import type { Schemas } from '../../server/http/handler-types'
import { field, file, png, send } from './content-helpers'
import { fakeEnvelope, keyedMember, startConversation } from './e2ee-support'
import { api, type AuthResponse, loginBody, openTestDatabase, registerMember, type TestDatabase, testCaches } from './harness'

// npm run backup / restore (server/backup/), on PGlite (the snapshot asked of the running app over its control
// socket) and, with DATABASE_URL, on PostgreSQL (pg_dump into an archive, pg_restore into a second database).

const databaseUrl = process.env.DATABASE_URL || undefined
const testConfig = { rateLimits: false, logLevel: 'silent' as const, hashConcurrency: 2 }

/** PostgreSQL: whole databases of their own (pg_dump takes a database, not the harness's schema). */
const databases: string[] = []
async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}
async function newDatabase(): Promise<string> {
  const name = `wren_backup_test_${randomBytes(5).toString('hex')}`
  await adminQuery(`create database ${name}`)
  databases.push(name)
  const url = new URL(databaseUrl!)
  url.pathname = `/${name}`
  return url.toString()
}

async function tempDir(label: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `wren-backup-${label}-`))
}

const dirs: string[] = []
let source: TestDatabase | undefined
let sourceHandle: DatabaseHandle
let sourceDir: string
let sourceUrl: string | undefined
let app: FastifyInstance
let restoredApp: FastifyInstance | undefined

beforeAll(async () => {
  if (databaseUrl) {
    sourceDir = await tempDir('source')
    dirs.push(sourceDir)
    sourceUrl = await newDatabase()
    sourceHandle = await openDatabase({ url: sourceUrl, dataDir: sourceDir })
  } else {
    source = await openTestDatabase()
    sourceHandle = source.handle
    sourceDir = source.dataDir
  }
  app = await buildApp({
    database: sourceHandle,
    config: { ...testConfig, dataDir: sourceDir },
    controlSocket: true,
    caches: testCaches,
  })
  await app.ready()
})

afterAll(async () => {
  await restoredApp?.close()
  await app?.close()
  if (source) await source.close()
  else await sourceHandle?.close()
  for (const name of databases) await adminQuery(`drop database if exists ${name} with (force)`)
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

/** The community: members (two with message keys), a post with an image, an avatar, a message with an attachment. */
async function makeCommunity() {
  const admin = await registerMember(app)
  const ann = await keyedMember(app, { displayName: 'Ann Keys' })
  const bea = await keyedMember(app, { displayName: 'Bea Keys' })
  const avatar = await send(app, 'POST', '/api/users/profile/avatar', ann.token, [file('image', 'me.png', 'image/png', await png(90, 90))])
  expect(avatar.statusCode).toBe(200)
  const created = await send(app, 'POST', '/api/posts', ann.token, [
    field('content', 'a photo from the hill'),
    file('media', 'hill.png', 'image/png', await png(60, 40, '#25a')),
  ])
  expect(created.statusCode, created.body).toBe(201)
  const post = created.json<Schemas['PostResponse']>().post
  const conversation = (await startConversation(app, ann.token, bea.user.id)).json<{ conversation: { id: string } }>()
    .conversation
  const attachmentBytes = randomBytes(4000)
  const uploaded = await app.inject({
    method: 'POST',
    url: `/api/messages/conversations/${conversation.id}/attachments`,
    headers: { authorization: `Bearer ${ann.token}`, 'content-type': 'application/octet-stream' },
    payload: attachmentBytes,
  })
  expect(uploaded.statusCode, uploaded.body).toBe(201)
  const attachment = uploaded.json<Schemas['MessageAttachmentResponse']>().attachment
  const sent = await api(app, 'POST', `/api/messages/conversations/${conversation.id}/messages`, {
    token: ann.token,
    body: { content: fakeEnvelope(200).replace(/^m1\./, 'm2.'), attachmentIds: [attachment.id] },
  })
  expect(sent.statusCode, sent.body).toBe(201)
  return { admin, ann, bea, post, attachment, attachmentBytes, avatarUrl: avatar.json<Schemas['MeResponse']>().user.avatar! }
}

async function counts(db: DatabaseHandle['db']) {
  return {
    users: await db.$count(users),
    posts: await db.$count(posts),
    postMedia: await db.$count(postMedia),
    conversations: await db.$count(conversations),
    messages: await db.$count(messages),
    attachments: await db.$count(messageAttachments),
  }
}

const mediaFile = (dataDir: string, url: string) => path.join(dataDir, 'media', ...url.replace(/^\/media\//, '').split('/'))

describe(`backup and restore (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  let community: Awaited<ReturnType<typeof makeCommunity>>
  let archive: string
  let outDir: string
  let restoredDir: string
  let restoredUrl: string | undefined

  it('backs up while the app serves, and the restored instance has every member, post, file, key and attachment', async () => {
    community = await makeCommunity()
    outDir = await tempDir('out')
    dirs.push(outDir)

    // Writes keep coming while the backup runs; whatever the snapshot holds, its files must be in the archive.
    const writes = Promise.all(
      Array.from({ length: 4 }, async (_, i) => {
        const res = await send(app, 'POST', '/api/posts', community.bea.token, [
          field('content', `during the backup ${i}`),
          file('media', `d${i}.png`, 'image/png', await png(20 + i, 20)),
        ])
        expect(res.statusCode).toBe(201)
      }),
    )
    const result = await createBackup({ output: outDir, dataDir: sourceDir, databaseUrl: sourceUrl })
    await writes
    archive = result.path
    expect(path.dirname(archive)).toBe(outDir)
    expect(path.basename(archive)).toMatch(/^wren-backup-\d{8}-\d{6}Z\.tar$/)
    expect(result.source).toBe(databaseUrl ? 'pg_dump' : 'running server')
    expect(result.manifest.database.migration?.tag).toMatch(/^\d{4}_/)
    expect(result.manifest.counts.attachments.files).toBe(1)
    expect(result.manifest.counts.media.files).toBeGreaterThanOrEqual(3) // the avatar, the photo and its thumbnail
    // Nothing but the archive is left beside it (no partial file, no pg_dump temporary).
    expect(await readdir(outDir)).toEqual([path.basename(archive)])

    const targetDir = (restoredDir = await tempDir('restored'))
    dirs.push(targetDir)
    const targetUrl = (restoredUrl = databaseUrl ? await newDatabase() : undefined)
    const restored = await restoreBackup({ archive, dataDir: targetDir, databaseUrl: targetUrl })
    expect(restored.manifest.createdAt).toBe(result.manifest.createdAt)
    expect(result.bytes).toBe((await stat(archive)).size)

    restoredApp = await buildApp({ config: { ...testConfig, dataDir: targetDir, databaseUrl: targetUrl }, caches: testCaches })
    await restoredApp.ready()
    const restoredCounts = await counts(restoredApp.services.db)
    expect(restoredCounts.users).toBe(3)
    expect(restoredCounts.conversations).toBe(1)
    expect(restoredCounts.messages).toBe(1)
    expect(restoredCounts.attachments).toBe(1)
    // The post made before the backup, and each made during it either whole (its row, its photo's row, the photo
    // and its thumbnail on disk) or not at all.
    expect(restoredCounts.posts).toBeGreaterThanOrEqual(1)
    expect(restoredCounts.posts).toBeLessThanOrEqual(5)
    expect(restoredCounts.postMedia).toBe(restoredCounts.posts)
    const keys = await restoredApp.services.db.select({ key: postMedia.storageKey, thumbnail: postMedia.thumbnailKey }).from(postMedia)
    for (const key of keys.flatMap((row) => [row.key, row.thumbnail ?? ''])) {
      expect(existsSync(path.join(targetDir, 'media', ...key.split('/'))), key).toBe(true)
    }

    // Sign-in works and gives back the same wrapped private key.
    const login = await api(restoredApp, 'POST', '/api/auth/login', { body: loginBody(community.ann.user.username, community.ann.password) })
    expect(login.statusCode, login.body).toBe(200)
    expect(login.json<AuthResponse>().privateKey).toBe(community.ann.privateKey)
    const beaLogin = await api(restoredApp, 'POST', '/api/auth/login', { body: loginBody(community.bea.user.username, community.bea.password) })
    const beaToken = beaLogin.json<AuthResponse>().token

    // The post and its photo, byte for byte; the avatar; the encrypted attachment through the API.
    const post = await api(restoredApp, 'GET', `/api/posts/${community.post.id}`, { token: beaToken })
    expect(post.statusCode).toBe(200)
    const photoUrl = community.post.media[0]!.url
    const served = await restoredApp.inject({ method: 'GET', url: photoUrl })
    expect(served.statusCode).toBe(200)
    expect(served.rawPayload).toEqual(await readFile(mediaFile(sourceDir, photoUrl)))
    expect(await readFile(mediaFile(targetDir, community.avatarUrl))).toEqual(await readFile(mediaFile(sourceDir, community.avatarUrl)))
    const download = await api(restoredApp, 'GET', `/api/messages/attachments/${community.attachment.id}`, { token: beaToken })
    expect(download.statusCode).toBe(200)
    expect(download.rawPayload).toEqual(community.attachmentBytes)
  })

  it('refuses a truncated archive and an altered one, restoring nothing', async () => {
    const whole = await readFile(archive)
    const target = await tempDir('refused')
    dirs.push(target)

    const truncated = path.join(outDir, 'truncated.tar')
    await writeFile(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)))
    await expect(restoreBackup({ archive: truncated, dataDir: target })).rejects.toThrow(/truncated/)
    expect(await readdir(target)).toEqual([])

    // One byte of the photo changed: the manifest's checksum catches it.
    const altered = Buffer.from(whole)
    const at = altered.indexOf(Buffer.from(`media/${community.post.media[0]!.url.replace(/^\/media\//, '')}`))
    expect(at).toBeGreaterThanOrEqual(0)
    altered[at + 512 + 20]! ^= 0xff
    const alteredFile = path.join(outDir, 'altered.tar')
    await writeFile(alteredFile, altered)
    await expect(restoreBackup({ archive: alteredFile, dataDir: target, databaseUrl: databaseUrl ? await newDatabase() : undefined })).rejects.toThrow(
      /does not match its checksum/,
    )
    expect(await readdir(target)).toEqual([])
  })

  it('refuses to restore over an instance without --force, and with it moves the old one aside', async () => {
    // The instance restored by the first test, its server stopped.
    await restoredApp?.close()
    restoredApp = undefined
    const target = restoredDir
    const targetUrl = restoredUrl
    await expect(restoreBackup({ archive, dataDir: target, databaseUrl: targetUrl })).rejects.toThrow(
      /already holds an instance \((db, )?media, attachments\).*--force/,
    )
    if (databaseUrl) {
      // An empty DATA_DIR but a database with Wren's tables: refused too.
      const emptyDir = await tempDir('empty')
      dirs.push(emptyDir)
      await expect(restoreBackup({ archive, dataDir: emptyDir, databaseUrl: targetUrl })).rejects.toThrow(
        /already holds Wren's tables.*--force/,
      )
    } else {
      // A live process holding the embedded database: the server is running.
      const running = await tempDir('running')
      dirs.push(running)
      await writeFile(path.join(running, 'db.lock'), String(process.ppid))
      await expect(restoreBackup({ archive, dataDir: running })).rejects.toThrow(/in use by process \d+.*Stop the server/)
    }

    const forced = await restoreBackup({ archive, dataDir: target, databaseUrl: targetUrl, force: true })
    expect(forced.movedAside).toBeDefined()
    expect((await readdir(path.join(forced.movedAside!, 'attachments'), { recursive: true })).length).toBeGreaterThan(0)
  })

  // The embedded database only: with PostgreSQL the backup never asks the server for anything.
  if (!databaseUrl) it('holds file deletions on the running server until the backup has copied the files', async () => {
    const snapshot = await requestSnapshot(sourceDir)
    expect(snapshot).toBeDefined()
    for await (const _ of snapshot!.body) void _
    const photo = mediaFile(sourceDir, community.post.media[0]!.url)
    expect((await api(app, 'DELETE', `/api/posts/${community.post.id}`, { token: community.ann.token })).statusCode).toBe(204)
    expect(existsSync(photo)).toBe(true)
    snapshot!.finish()
    await expect.poll(() => existsSync(photo)).toBe(false)
  })
})

describe('the archive format (tar.ts, over tar-stream)', () => {
  async function write(entries: { name: string; bytes: Buffer }[]): Promise<Buffer> {
    const out = new PassThrough()
    const chunks: Buffer[] = []
    out.on('data', (chunk: Buffer) => chunks.push(chunk))
    const tar = new TarWriter(out)
    for (const { name, bytes } of entries) await tar.add(name, bytes.length, [bytes])
    await tar.finish()
    return Buffer.concat(chunks)
  }
  async function read(archive: Buffer): Promise<{ name: string; bytes: Buffer }[]> {
    const entries = []
    for await (const entry of readTar(Readable.from([archive]))) {
      const chunks: Buffer[] = []
      for await (const chunk of entry.body) chunks.push(chunk)
      entries.push({ name: entry.name, bytes: Buffer.concat(chunks) })
    }
    return entries
  }

  it('keeps long and non-ASCII names and exact bytes', async () => {
    const entries = [
      { name: `media/${'a'.repeat(120)}/${'b'.repeat(120)}.png`, bytes: randomBytes(70_000) },
      { name: 'media/été/ünïcode.png', bytes: randomBytes(513) },
      { name: 'manifest.json', bytes: Buffer.from('{}') },
    ]
    expect(await read(await write(entries))).toEqual(entries)
  })

  it('refuses a body of another size than announced', async () => {
    await expect(new TarWriter(new PassThrough()).add('media/a', 5, [Buffer.alloc(6)])).rejects.toThrow(/grew/)
    await expect(new TarWriter(new PassThrough()).add('media/a', 5, [Buffer.alloc(4)])).rejects.toThrow(/shrank/)
  })

  it('refuses a cut archive, a damaged header and what is not a tar with ArchiveFormatError', async () => {
    const archive = await write([{ name: 'media/a', bytes: randomBytes(2000) }])
    await expect(read(archive.subarray(0, 1000))).rejects.toThrow(/truncated/)
    await expect(read(archive.subarray(0, 300))).rejects.toThrow(/truncated/)
    const damaged = Buffer.from(archive)
    damaged[3]! ^= 0xff
    await expect(read(damaged)).rejects.toThrow(ArchiveFormatError)
    await expect(read(damaged)).rejects.toThrow(/damaged header/)
    await expect(read(randomBytes(4096))).rejects.toThrow(/damaged header/)
  })
})
