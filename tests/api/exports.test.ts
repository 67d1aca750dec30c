import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { EXPORT_TTL_MS } from '../../server/modules/exports/service'
import { field, file, follow, type Member, png, publish, quickMember, send } from './content-helpers'
import { api, type ErrorBody } from './harness'
import { useTestApp } from './harness'

// docs/product.md, "Exporting your data". Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
let now = Date.UTC(2026, 10, 27, 12)
const clock = { now: () => now }
const t = useTestApp({ clock })

type Res = { statusCode: number; body: string; json: () => unknown }
const expectStatus = (res: Res, status: number) => expect(res.statusCode, res.body).toBe(status)
type DataExport = Schemas['DataExport']

const requestExport = (who: Member) => api(t.app, 'POST', '/api/exports', { token: who.token })
const exportsOf = async (who: Member): Promise<DataExport[]> => {
  const res = await api(t.app, 'GET', '/api/exports', { token: who.token })
  expectStatus(res, 200)
  return (res.json() as Schemas['ExportsResponse']).exports
}
const download = (who: Member, id: string) => t.app.inject({ method: 'GET', url: `/api/exports/${id}/download`, headers: { authorization: `Bearer ${who.token}` } })
const exportFile = (id: string) => path.join(t.database.dataDir, 'exports', `${id}.zip`)
const exists = (file: string) => stat(file).then(() => true, () => false)

/** Asks for an export, runs the job, and answers the ready export. */
async function readyExport(who: Member): Promise<DataExport> {
  const res = await requestExport(who)
  expectStatus(res, 202)
  const asked = (res.json() as { export: DataExport }).export
  expect(asked.status).toBe('preparing')
  await t.app.services.jobs.drain()
  const ready = (await exportsOf(who)).find((e) => e.id === asked.id)
  expect(ready?.status).toBe('ready')
  return ready as DataExport
}

async function unzipped(who: Member, id: string): Promise<Record<string, Uint8Array>> {
  const res = await download(who, id)
  expectStatus(res, 200)
  return unzipSync(new Uint8Array(res.rawPayload))
}
const json = (files: Record<string, Uint8Array>, name: string): unknown => {
  const data = files[name]
  if (!data) throw new Error(`${name} is not in the archive: ${Object.keys(files).join(', ')}`)
  return JSON.parse(strFromU8(data))
}

describe('exporting one’s data', () => {
  let ann: Member
  let bob: Member
  let cat: Member
  let annPost: string
  let photoKey: string
  let photo: Buffer

  beforeAll(async () => {
    ann = await quickMember(t.app, 'ann')
    bob = await quickMember(t.app, 'bob')
    cat = await quickMember(t.app, 'cat')
    photo = await png(30, 20)
    const created = await send(t.app, 'POST', '/api/posts', ann.token, [
      field('content', 'a photo of the lake'),
      field('alt', 'the lake'),
      file('media', 'lake.png', 'image/png', photo),
    ])
    expectStatus(created, 201)
    const post = (created.json() as Schemas['PostResponse']).post
    annPost = post.id
    photoKey = new URL(post.media[0]?.url ?? '', 'http://x').pathname.replace(/^\/media\//, '')
    await publish(t.app, ann.token, 'plain words')
    const bobPost = await publish(t.app, bob.token, 'bob says hi')
    expectStatus(await send(t.app, 'POST', '/api/posts', ann.token, [field('content', 'hi bob'), field('replyTo', bobPost.id)]), 201)
    expectStatus(await api(t.app, 'POST', `/api/posts/${bobPost.id}/like`, { token: ann.token }), 200)
    expectStatus(await api(t.app, 'POST', `/api/posts/${bobPost.id}/repost`, { token: ann.token }), 200)
    await follow(t.app, ann, bob)
    await follow(t.app, cat, ann)
    const list = await api(t.app, 'POST', '/api/lists', { token: ann.token, body: { name: 'Close friends', isPrivate: true } })
    expectStatus(list, 201)
    const listId = (list.json() as Schemas['ListResponse']).list.id
    expectStatus(await api(t.app, 'POST', `/api/lists/${listId}/members`, { token: ann.token, body: { userId: bob.id } }), 201)
    expectStatus(await api(t.app, 'POST', '/api/bookmarks', { token: ann.token, body: { postId: bobPost.id } }), 201)
    expectStatus(await api(t.app, 'POST', '/api/mutes/keyword', { token: ann.token, body: { keyword: 'spoilers' } }), 201)
    expectStatus(await api(t.app, 'POST', `/api/blocks/user/${cat.id}`, { token: ann.token }), 201)
    // Bob's own private things, which must not travel in Ann's archive.
    expectStatus(await api(t.app, 'POST', '/api/lists', { token: bob.token, body: { name: 'Bob secret list', isPrivate: true } }), 201)
    expectStatus(await api(t.app, 'POST', '/api/bookmarks', { token: bob.token, body: { postId: annPost } }), 201)
    expectStatus(await api(t.app, 'POST', '/api/mutes/keyword', { token: bob.token, body: { keyword: 'bobs-muted-word' } }), 201)
  })

  it('prepares a zip of every section in the background, with the media files and a README', async () => {
    const ready = await readyExport(ann)
    expect(ready.size).toBeGreaterThan(0)
    expect(new Date(ready.expiresAt ?? 0).getTime() - new Date(ready.readyAt ?? 0).getTime()).toBe(EXPORT_TTL_MS)
    const files = await unzipped(ann, ready.id)

    expect(strFromU8(files['README.txt'] ?? new Uint8Array())).toContain('posts.json')
    expect(json(files, 'profile.json')).toMatchObject({ username: ann.username })
    expect(JSON.stringify(json(files, 'profile.json'))).not.toContain('password')

    const posts = json(files, 'posts.json') as { id: string; content: string; media: { file: string; alt: string }[] }[]
    expect(posts.map((p) => p.content)).toEqual(['a photo of the lake', 'plain words'])
    expect(posts[0]?.media).toEqual([expect.objectContaining({ file: `media/${photoKey}`, alt: 'the lake' })])
    // The media file is in the archive byte for byte as stored.
    const stored = await t.app.services.storage.open(photoKey)
    const chunks: Buffer[] = []
    for await (const chunk of stored ?? []) chunks.push(chunk as Buffer)
    expect(Buffer.from(files[`media/${photoKey}`] ?? [])).toEqual(Buffer.concat(chunks))

    expect((json(files, 'replies.json') as { content: string; reply_to_username: string }[]).map((r) => [r.content, r.reply_to_username])).toEqual([
      ['hi bob', bob.username],
    ])
    expect(json(files, 'likes.json')).toEqual([expect.objectContaining({ post_author: bob.username })])
    expect(json(files, 'reposts.json')).toEqual([expect.objectContaining({ post_author: bob.username })])
    expect((json(files, 'following.json') as { username: string }[]).map((f) => f.username)).toEqual([bob.username])
    // Cat followed Ann, then Ann blocked Cat (a block ends the follow both ways).
    expect(json(files, 'followers.json')).toEqual([])
    expect(json(files, 'lists.json')).toEqual([
      expect.objectContaining({ name: 'Close friends', is_private: true, members: [expect.objectContaining({ username: bob.username })] }),
    ])
    expect(json(files, 'bookmarks.json')).toEqual([expect.objectContaining({ post_author: bob.username, collections: [] })])
    expect(json(files, 'collections.json')).toEqual([])
    expect((json(files, 'mutes/keywords.json') as { value: string }[]).map((k) => k.value)).toEqual(['spoilers'])
    expect((json(files, 'blocks/users.json') as { username: string }[]).map((b) => b.username)).toEqual([cat.username])
    for (const name of ['mutes/users.json', 'mutes/domains.json', 'blocks/keywords.json', 'blocks/domains.json', 'list-subscriptions.json']) {
      expect(json(files, name)).toEqual([])
    }

    // Nothing of Bob's own: his private list, his bookmark of Ann's post, his muted word.
    const everything = Object.values(files).map((f) => Buffer.from(f).toString('latin1')).join('\n')
    expect(everything).not.toContain('Bob secret list')
    expect(everything).not.toContain('bobs-muted-word')
    expect(json(files, 'bookmarks.json')).toHaveLength(1)
  })

  it('tells the member with a notification and a mail', async () => {
    const res = await api(t.app, 'GET', '/api/notifications', { token: ann.token })
    expectStatus(res, 200)
    const items = (res.json() as Schemas['NotificationsPage']).notifications
    expect(items.filter((n) => n.type === 'export_ready')).toHaveLength(1)
    const outbox = await readdir(path.join(t.database.dataDir, 'outbox'))
    expect(outbox.length).toBeGreaterThan(0)
  })

  it('downloads as many times as wanted, as a zip attachment, to its owner only', async () => {
    const [ready] = (await exportsOf(ann)).filter((e) => e.status === 'ready')
    if (!ready) throw new Error('no ready export')
    const first = await download(ann, ready.id)
    const second = await download(ann, ready.id)
    expectStatus(first, 200)
    expectStatus(second, 200)
    expect(first.headers['content-type']).toBe('application/zip')
    expect(first.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${ann.username}-\\d{4}-\\d{2}-\\d{2}\\.zip"$`))
    expect(first.headers['cache-control']).toBe('private, no-store')
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true)

    const stranger = await download(bob, ready.id)
    expectStatus(stranger, 404)
    expect((stranger.json() as ErrorBody).error).toBe('Export not found')
    expect(await exportsOf(bob)).toEqual([])
    expectStatus(await api(t.app, 'GET', `/api/exports/${ready.id}/download`), 401)
    expectStatus(await download(ann, '0190f3a0-0000-7000-8000-000000000000'), 404)
    // An id that is no uuid at all is "not found" too, not a database error.
    for (const id of ['%20', 'not-an-id', "1'"]) expectStatus(await download(ann, id), 404)
  })

  it('prepares one export at a time per member', async () => {
    const first = await requestExport(bob)
    expectStatus(first, 202)
    const second = await requestExport(bob)
    expectStatus(second, 409)
    expect((second.json() as ErrorBody).error).toBe('An export is already being prepared')
    // Another member is not held up.
    expectStatus(await requestExport(cat), 202)
    expect((await exportsOf(bob)).map((e) => e.status)).toEqual(['preparing'])
    await t.app.services.jobs.drain()
    expect((await exportsOf(bob)).map((e) => e.status)).toEqual(['ready'])
    // Once it is ready, another may be asked for.
    expectStatus(await requestExport(bob), 202)
    await t.app.services.jobs.drain()
    expect((await exportsOf(bob)).map((e) => e.status)).toEqual(['ready', 'ready'])
  })

  it('is safe to run again: a rerun of a finished job changes nothing, one that died mid-way writes it again', async () => {
    const ready = await readyExport(cat)
    const before = (await download(cat, ready.id)).rawPayload
    await t.app.services.exports.prepare({ exportId: ready.id, userId: cat.id })
    expect((await download(cat, ready.id)).rawPayload.equals(before)).toBe(true)

    // A run that died after writing part of the file: the next one replaces the leftover and finishes.
    const res = await requestExport(cat)
    expectStatus(res, 202)
    const asked = (res.json() as { export: DataExport }).export
    const { writeFile } = await import('node:fs/promises')
    await writeFile(`${exportFile(asked.id)}.part`, 'half a zip')
    await t.app.services.jobs.drain()
    const files = await unzipped(cat, asked.id)
    expect(json(files, 'profile.json')).toMatchObject({ username: cat.username })
    expect(await exists(`${exportFile(asked.id)}.part`)).toBe(false)
    const notes = (await api(t.app, 'GET', '/api/notifications', { token: cat.token })).json() as Schemas['NotificationsPage']
    expect(notes.notifications.filter((n) => n.type === 'export_ready')).toHaveLength(1)
  })

  it('keeps archives out of the public media folder', async () => {
    const res = await requestExport(ann)
    expectStatus(res, 202)
    await t.app.services.jobs.drain()
    const id = (res.json() as { export: DataExport }).export.id
    expect(await exists(exportFile(id))).toBe(true)
    expect(exportFile(id).startsWith(path.join(t.database.dataDir, 'media'))).toBe(false)
    expectStatus(await api(t.app, 'GET', `/media/../exports/${id}.zip`), 404)
  })
  it('deletes the file and the entry 7 days after it was ready', async () => {
    const member = await quickMember(t.app, 'dee')
    const ready = await readyExport(member)
    expect(await exists(exportFile(ready.id))).toBe(true)

    // Sessions do not last a week idle: sign in again (a new session) after each jump.
    const signIn = async () => ({ ...member, token: await t.app.services.sessions.create(member.id, { userAgent: 'tests' }) })
    now += EXPORT_TTL_MS - 60_000
    await t.app.services.jobs.drain()
    expectStatus(await download(await signIn(), ready.id), 200)

    now += 2 * 60_000
    const again = await signIn()
    // Past its time it is gone from the list and the download at once, before the deletion job has even run.
    expectStatus(await download(again, ready.id), 404)
    expect(await exportsOf(again)).toEqual([])
    await t.app.services.jobs.drain()
    expect(await exists(exportFile(ready.id))).toBe(false)
    const left = await t.app.services.db.execute(`select count(*)::int as n from exports where id = '${ready.id}'` as never)
    expect((left as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0)
  })

})
