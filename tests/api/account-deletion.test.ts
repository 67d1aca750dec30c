import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import { describe, expect, it, vi } from 'vitest'
import { selectRows } from '../../server/db/rows'
import { uuidv7 } from '../../server/db/ids'
import type { Schemas } from '../../server/http/handler-types'
import { field, file, follow, png, publish, quickMember, send, type Member } from './content-helpers'
import { api, authSecretOf, type ErrorBody, registerMember, registration, useTestApp } from './harness'

// docs/product.md, "Deleting an account": the request's rules, what is hidden at once, what the background job removes
// (every counter on others exact, every file gone), what stays (reports), and the username held for 30 days. The app's
// clock is moved by the test (the held name's 30 days, the job's retry backoff).
let now = Date.UTC(2026, 10, 27, 9, 0, 0)
const clock = { now: () => now }
const DAY = 24 * 60 * 60_000
const t = useTestApp({ clock })

type Registered = Awaited<ReturnType<typeof registerMember>>
const asMember = (r: Registered): Member => ({ id: r.user.id, username: r.user.username, token: r.token })

const deleteAccount = (who: Registered, body: Record<string, unknown> = {}) =>
  api(t.app, 'POST', '/api/auth/delete-account', {
    token: who.token,
    body: { currentAuthSecret: authSecretOf(who.password), confirm: who.user.username, ...body },
  })
const errorOf = (res: { json: () => unknown }) => (res.json() as ErrorBody).error

const one = async <T>(query: ReturnType<typeof sql>): Promise<T> => {
  const [row] = await selectRows<T>(t.app.services.db, query)
  if (!row) throw new Error('no row')
  return row
}
const userCounts = (id: string) =>
  one<{ followers_count: number; following_count: number; posts_count: number }>(
    sql`select followers_count, following_count, posts_count from users where id = ${id}`,
  )
const postCounts = (id: string) =>
  one<{ like_count: number; repost_count: number; reply_count: number }>(
    sql`select like_count, repost_count, reply_count from posts where id = ${id}`,
  )
const exists = async (query: ReturnType<typeof sql>) => (await selectRows(t.app.services.db, query)).length > 0

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((e) => e.isFile() && !e.parentPath.includes('.partial')).map((e) => path.join(e.parentPath, e.name))
}
const media = () => filesUnder(path.join(t.database.dataDir, 'media'))
const attachments = () => filesUnder(path.join(t.database.dataDir, 'attachments'))

const drain = () => t.app.services.jobs.drain()

/** A conversation between two members with one encrypted attachment each (stored bytes only: the job never reads them). */
async function conversationWithFiles(a: string, b: string): Promise<{ id: string; keys: string[] }> {
  const [low, high] = a < b ? [a, b] : [b, a]
  const id = uuidv7()
  const db = t.app.services.db
  await db.execute(sql`insert into conversations (id, member_low, member_high) values (${id}, ${low}, ${high})`)
  await db.execute(sql`insert into conversation_members (conversation_id, user_id) values (${id}, ${a}), (${id}, ${b})`)
  const keys: string[] = []
  for (const sender of [a, b]) {
    const messageId = uuidv7()
    await db.execute(sql`insert into messages (id, conversation_id, sender_id, content) values (${messageId}, ${id}, ${sender}, 'm2.ciphertext')`)
    const key = `${id.slice(0, 2)}/${uuidv7().replaceAll('-', '')}.bin`
    await t.app.services.attachmentStorage.put(key, Buffer.from('sealed bytes'), 'application/octet-stream')
    await db.execute(sql`insert into message_attachments (id, conversation_id, uploader_id, message_id, storage_key, size)
      values (${uuidv7()}, ${id}, ${sender}, ${messageId}, ${key}, 12)`)
    keys.push(key)
  }
  return { id, keys }
}

describe('POST /auth/delete-account: the proof', () => {
  it('refuses a wrong password, a wrong confirmation and no proof, and keeps the account', async () => {
    const ann = await registerMember(t.app)
    const wrong = await deleteAccount(ann, { currentAuthSecret: authSecretOf('Not-The-Password-1') })
    expect(wrong.statusCode).toBe(400)
    expect(errorOf(wrong)).toBe('Current password is incorrect')
    const typo = await deleteAccount(ann, { confirm: `${ann.user.username}x` })
    expect(typo.statusCode).toBe(400)
    expect(errorOf(typo)).toBe('Type your username to confirm')
    const none = await api(t.app, 'POST', '/api/auth/delete-account', { token: ann.token, body: { confirm: ann.user.username } })
    expect(none.statusCode).toBe(400)
    expect((await api(t.app, 'GET', '/api/auth/me', { token: ann.token })).statusCode).toBe(200)
    expect(await exists(sql`select 1 from jobs where key = ${`delete:${ann.user.id}`}`)).toBe(false)
  })

  it('accepts the username typed with another case or an @', async () => {
    const ann = await registerMember(t.app)
    const res = await deleteAccount(ann, { confirm: ` @${ann.user.username.toUpperCase()} ` })
    expect(res.statusCode).toBe(202)
    expect(res.json()).toEqual({ message: 'Your account is being deleted' })
    await drain()
  })

  it('asks for a code from the authenticator app when two-factor sign-in is on, and refuses a wrong one', async () => {
    const ann = await registerMember(t.app)
    const setup = await api(t.app, 'POST', '/api/auth/two-factor/setup', { token: ann.token })
    const secret = (setup.json() as { secret: string }).secret
    const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 })
    const enabled = await api(t.app, 'POST', '/api/auth/two-factor/enable', {
      token: ann.token,
      body: { code: totp.generate({ timestamp: now }), currentAuthSecret: authSecretOf(ann.password) },
    })
    expect(enabled.statusCode).toBe(200)
    const recovery = (enabled.json() as { recoveryCodes: string[] }).recoveryCodes

    const missing = await deleteAccount(ann)
    expect(missing.statusCode).toBe(400)
    expect(errorOf(missing)).toBe('Enter a code from your authenticator app')
    const wrong = await deleteAccount(ann, { twoFactorCode: '000000' })
    expect(wrong.statusCode).toBe(400)
    expect(errorOf(wrong)).toBe('Invalid code')
    expect((await api(t.app, 'GET', '/api/auth/me', { token: ann.token })).statusCode).toBe(200)

    const res = await deleteAccount(ann, { twoFactorCode: recovery[0] })
    expect(res.statusCode).toBe(202)
    await drain()
  })

  it('refuses the last admin, and lets an admin go once another admin exists', async () => {
    const db = t.app.services.db
    await db.execute(sql`update users set is_admin = false`)
    const boss = await registerMember(t.app)
    await db.execute(sql`update users set is_admin = true where id = ${boss.user.id}`)
    await t.app.services.sessions.memberChanged(boss.user.id)
    const refused = await deleteAccount(boss)
    expect(refused.statusCode).toBe(409)
    expect(errorOf(refused)).toBe('You are the last admin: promote another member to admin before deleting your account')

    const next = await quickMember(t.app, 'adm')
    await db.execute(sql`update users set is_admin = true where id = ${next.id}`)
    expect((await deleteAccount(boss)).statusCode).toBe(202)
    const audit = await api(t.app, 'GET', '/api/admin/audit-log', { token: next.token })
    expect(audit.statusCode).toBe(200)
    const entries = (audit.json() as { entries: Array<{ action: string; details: string }> }).entries
    expect(entries.find((e) => e.action === 'delete-account')?.details).toBe(`@${boss.user.username} deleted their account`)
    await drain()
  })
})

describe('what goes at once', () => {
  it('signs the member out everywhere and hides them before the job has run', async () => {
    const ann = await registerMember(t.app)
    const other = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: ann.user.username, authSecret: authSecretOf(ann.password) },
    })
    const otherToken = (other.json() as { token: string }).token
    const bob = await quickMember(t.app, 'bob')
    await follow(t.app, bob, asMember(ann))
    const post = await publish(t.app, ann.token, 'soon gone #farewell')

    // The job is kept from running, to see what the request alone did.
    const run = vi.spyOn(t.app.services.jobs, 'drain')
    const queue = t.app.services.jobs as unknown as { claim: () => Promise<unknown> }
    const claim = vi.spyOn(queue, 'claim').mockResolvedValue(undefined)
    try {
      expect((await deleteAccount(ann)).statusCode).toBe(202)
      for (const token of [ann.token, otherToken]) {
        expect((await api(t.app, 'GET', '/api/auth/me', { token })).statusCode).toBe(401)
      }
      const login = await api(t.app, 'POST', '/api/auth/login', {
        body: { username: ann.user.username, authSecret: authSecretOf(ann.password) },
      })
      expect(login.statusCode).toBe(401)
      expect((await api(t.app, 'GET', `/api/users/${ann.user.username}`, { token: bob.token })).statusCode).toBe(404)
      expect((await api(t.app, 'GET', `/api/posts/${post.id}`, { token: bob.token })).statusCode).toBe(404)
      const feed = await api(t.app, 'GET', '/api/posts/feed', { token: bob.token })
      expect((feed.json() as Schemas['FeedResponse']).posts.map((p) => p.id)).not.toContain(post.id)
      // Nothing new can attach to them while the job runs: no like of their posts, no follow, no block.
      expect((await api(t.app, 'POST', `/api/posts/${post.id}/like`, { token: bob.token })).statusCode).toBe(404)
      const cat = await quickMember(t.app, 'cat')
      expect((await api(t.app, 'POST', `/api/users/${ann.user.id}/follow`, { token: cat.token })).statusCode).toBe(404)
      const search = await api(t.app, 'GET', `/api/users/search?q=${ann.user.username}`, { token: bob.token })
      expect(JSON.stringify(search.json())).not.toContain(ann.user.id)
    } finally {
      claim.mockRestore()
      run.mockRestore()
    }
    await drain()
    expect(await exists(sql`select 1 from users where id = ${ann.user.id}`)).toBe(false)
  })
})

describe('the background job', () => {
  it('removes everything of the member and keeps every count on others exact, files included', async () => {
    const ann = await registerMember(t.app)
    const a = asMember(ann)
    const [bob, cat] = [await quickMember(t.app, 'bob'), await quickMember(t.app, 'cat')]
    const mediaBefore = await media()
    const attachmentsBefore = await attachments()

    // Follows both ways.
    await follow(t.app, a, bob)
    await follow(t.app, cat, a)
    await follow(t.app, cat, bob)
    // Ann's own posts: one with a photo and a hashtag, replied to by Bob (his reply goes with her thread).
    const photo = await send(t.app, 'POST', '/api/posts', ann.token, [
      field('content', 'my #annsonly garden'),
      file('media', 'garden.png', 'image/png', await png(40, 30)),
    ])
    expect(photo.statusCode).toBe(201)
    const annPost = (photo.json() as Schemas['PostResponse']).post
    await publish(t.app, bob.token, 'nice garden', { replyTo: annPost.id })
    const avatar = await send(t.app, 'POST', '/api/users/profile/avatar', ann.token, [file('image', 'me.png', 'image/png', await png(60, 60))])
    expect(avatar.statusCode).toBe(200)
    expect((await media()).length).toBeGreaterThan(mediaBefore.length)
    // What Ann did to Bob's post: a like (beside Cat's), a repost, a public reply, a bookmark.
    const bobPost = await publish(t.app, bob.token, 'hello #shared')
    await publish(t.app, cat.token, 'me too #shared')
    await api(t.app, 'POST', `/api/posts/${bobPost.id}/like`, { token: cat.token })
    await api(t.app, 'POST', `/api/posts/${bobPost.id}/like`, { token: ann.token })
    await api(t.app, 'POST', `/api/posts/${bobPost.id}/repost`, { token: ann.token })
    await publish(t.app, ann.token, 'reply from ann #shared', { replyTo: bobPost.id })
    await api(t.app, 'POST', '/api/bookmarks', { token: ann.token, body: { postId: bobPost.id } })
    // Bob's list holds Ann and Cat; Ann's own list goes with her.
    const list = (await api(t.app, 'POST', '/api/lists', { token: bob.token, body: { name: 'friends' } })).json() as { list: { id: string } }
    for (const userId of [a.id, cat.id]) {
      expect((await api(t.app, 'POST', `/api/lists/${list.list.id}/members`, { token: bob.token, body: { userId } })).statusCode).toBe(201)
    }
    await api(t.app, 'POST', '/api/lists', { token: ann.token, body: { name: 'mine' } })
    // A conversation with Bob, with an attachment each.
    const conversation = await conversationWithFiles(a.id, bob.id)
    expect((await attachments()).length).toBe(attachmentsBefore.length + 2)
    // Reports: Ann reported Bob, Cat reported Ann.
    const filed = await api(t.app, 'POST', '/api/reports/user', { token: ann.token, body: { userId: bob.id, reason: 'Spam' } })
    expect(filed.statusCode).toBe(201)
    const about = await api(t.app, 'POST', '/api/reports/user', { token: cat.token, body: { userId: a.id, reason: 'Spam' } })
    expect(about.statusCode).toBe(201)

    const before = {
      bob: await userCounts(bob.id),
      cat: await userCounts(cat.id),
      bobPost: await postCounts(bobPost.id),
    }
    expect(before.bobPost).toEqual({ like_count: 2, repost_count: 1, reply_count: 1 })
    const likeItem = await one<{ actor_count: number; latest_actor_id: string }>(
      sql`select actor_count, latest_actor_id from notifications where recipient_id = ${bob.id} and kind = 'like'`,
    )
    expect(likeItem).toEqual({ actor_count: 2, latest_actor_id: a.id })

    expect((await deleteAccount(ann)).statusCode).toBe(202)
    await drain()

    expect(await userCounts(bob.id)).toEqual({
      followers_count: before.bob.followers_count - 1,
      following_count: before.bob.following_count,
      // His reply under Ann's post went with her thread.
      posts_count: before.bob.posts_count - 1,
    })
    expect(await userCounts(cat.id)).toEqual({ ...before.cat, following_count: before.cat.following_count - 1 })
    expect(await postCounts(bobPost.id)).toEqual({ like_count: 1, repost_count: 0, reply_count: 0 })
    expect(
      await one(sql`select actor_count, latest_actor_id from notifications where recipient_id = ${bob.id} and kind = 'like'`),
    ).toEqual({ actor_count: 1, latest_actor_id: cat.id })
    // Only Ann reposted and replied: those items went; Cat's follow of Bob stays, Ann's is out of it.
    expect(await exists(sql`select 1 from notifications where recipient_id = ${bob.id} and kind in ('repost', 'reply')`)).toBe(false)
    expect(
      await one(sql`select actor_count, latest_actor_id from notifications where recipient_id = ${bob.id} and kind = 'follow'`),
    ).toEqual({ actor_count: 1, latest_actor_id: cat.id })
    expect(await one(sql`select member_count from lists where id = ${list.list.id}`)).toEqual({ member_count: 1 })
    expect(await exists(sql`select 1 from hashtags where tag = 'annsonly' and post_count > 0`)).toBe(false)
    expect(await one(sql`select post_count, public_post_count from hashtags where tag = 'shared'`)).toEqual({
      post_count: 2,
      public_post_count: 2,
    })
    const stats = await one<{ likes: number; replies: number; reposts: number }>(
      sql`select sum(likes)::int as likes, sum(replies)::int as replies, sum(reposts)::int as reposts
          from post_daily_stats where post_id = ${bobPost.id}`,
    )
    expect(stats).toEqual({ likes: 1, replies: 0, reposts: 0 })
    // Rows and files.
    for (const table of ['posts', 'likes', 'reposts', 'bookmarks', 'lists', 'messages']) {
      const column = table === 'posts' ? 'author_id' : table === 'lists' ? 'owner_id' : table === 'messages' ? 'sender_id' : 'user_id'
      expect(await exists(sql`select 1 from ${sql.raw(table)} where ${sql.raw(column)} = ${a.id}`), table).toBe(false)
    }
    expect(await exists(sql`select 1 from conversations where id = ${conversation.id}`)).toBe(false)
    expect(await exists(sql`select 1 from users where id = ${a.id}`)).toBe(false)
    expect(await media()).toEqual(mediaBefore)
    expect(await attachments()).toEqual(attachmentsBefore)
    // Reports stay for moderators, the member shown as deleted.
    const admin = await quickMember(t.app, 'admin')
    await t.app.services.db.execute(sql`update users set is_admin = true where id = ${admin.id}`)
    const reports = (await api(t.app, 'GET', '/api/reports', { token: admin.token })).json() as Schemas['ReportsPage']
    const mine = reports.reports.find((r) => r.id === (filed.json() as Schemas['ReportResponse']).report.id)
    expect(mine?.reporter).toBeNull()
    expect(mine?.target.username).toBe(bob.username)
    const theirs = reports.reports.find((r) => r.id === (about.json() as Schemas['ReportResponse']).report.id)
    expect(theirs?.target.username).toBeNull()
    expect(theirs?.reporter?.id).toBe(cat.id)
  })

  it('carries on after a run that died halfway without counting anything twice', async () => {
    const ann = await registerMember(t.app)
    const a = asMember(ann)
    const [bob, cat] = [await quickMember(t.app, 'bob'), await quickMember(t.app, 'cat')]
    await follow(t.app, a, bob)
    await follow(t.app, cat, bob)
    const bobPost = await publish(t.app, bob.token, 'hello')
    await api(t.app, 'POST', `/api/posts/${bobPost.id}/like`, { token: cat.token })
    await api(t.app, 'POST', `/api/posts/${bobPost.id}/like`, { token: ann.token })
    await publish(t.app, ann.token, 'mine')

    // The first run dies right after the likes page, before the follows.
    const invalidations = t.app.services.invalidations
    const emit = invalidations.emit.bind(invalidations)
    let died = false
    const spy = vi.spyOn(invalidations, 'emit').mockImplementation(async (message) => {
      if (!died && message.kind === 'posts-changed' && message.postIds.includes(bobPost.id)) {
        died = true
        throw new Error('the process died')
      }
      return emit(message)
    })
    try {
      expect((await deleteAccount(ann)).statusCode).toBe(202)
      await drain()
      expect(died).toBe(true)
      expect(await postCounts(bobPost.id)).toMatchObject({ like_count: 1 })
      expect(await userCounts(bob.id)).toMatchObject({ followers_count: 2 })
      // The retry comes due after its backoff.
      now += 10 * 60_000
      await drain()
    } finally {
      spy.mockRestore()
    }
    expect(await postCounts(bobPost.id)).toMatchObject({ like_count: 1 })
    expect(await userCounts(bob.id)).toMatchObject({ followers_count: 1 })
    expect(await exists(sql`select 1 from users where id = ${a.id}`)).toBe(false)
    expect(await exists(sql`select 1 from jobs where key = ${`delete:${a.id}`}`)).toBe(false)
  })
})

describe('the username', () => {
  it('is held for 30 days, then free again', async () => {
    const ann = await registerMember(t.app)
    expect((await deleteAccount(ann)).statusCode).toBe(202)
    await drain()
    const again = () => api(t.app, 'POST', '/api/auth/register', { body: registration({ username: ann.user.username.toUpperCase() }) })
    const held = await again()
    expect(held.statusCode).toBe(409)
    expect(errorOf(held)).toBe('Username is already taken')
    now += 29 * DAY
    await drain()
    expect((await again()).statusCode).toBe(409)
    now += 2 * DAY
    await drain()
    expect(await exists(sql`select 1 from held_usernames where name = lower(${ann.user.username})`)).toBe(false)
    expect((await again()).statusCode).toBe(201)
  })
})
