import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { InvalidationBus } from '../../server/cache/invalidation'
import { RedisBus } from '../../server/cache/redis-bus'
import { eventually, MemoryHub } from './cache-support'
import { feed, follow, type Member, publish, quickMember } from './content-helpers'
import { api, buildTestApp, openTestDatabase, type TestDatabase } from './harness'

/**
 * Two app instances on one database, as two server processes behind a load balancer: what one changes, the other's
 * caches must drop. With REDIS_URL set they talk through Redis pub/sub (the real RedisBus, on a channel of their
 * own so parallel test files and running servers do not hear each other); without it through an in-memory hub,
 * which exercises the same messages.
 */

const redisUrl = process.env.REDIS_URL || undefined
let database: TestDatabase
let a: FastifyInstance
let b: FastifyInstance
let ann: Member
let reader: Member

async function bus(channel: string, hub: MemoryHub): Promise<InvalidationBus> {
  if (!redisUrl) return hub.endpoint()
  return RedisBus.connect(redisUrl, channel)
}

beforeAll(async () => {
  database = await openTestDatabase()
  const hub = new MemoryHub()
  const channel = `wren-test:${randomBytes(6).toString('hex')}`
  // About the caches themselves: on even when the suite runs with WREN_TEST_CACHES=off (tests/api/harness.ts).
  a = await buildTestApp(database, { caches: true, invalidationBus: await bus(channel, hub) })
  b = await buildTestApp(database, { caches: true, invalidationBus: await bus(channel, hub) })
  ann = await quickMember(a, 'ann')
  reader = await quickMember(a, 'reader')
  await follow(a, reader, ann)
})

afterAll(async () => {
  await a?.close()
  await b?.close()
  await database?.close()
})

const inFeedOf = async (app: FastifyInstance, who: Member, id: string) =>
  (await feed(app, who.token)).posts.find((p) => p.id === id)

describe(`two instances${redisUrl ? ' over Redis' : ' over an in-memory bus'}`, () => {
  it('logout on A: the token is refused on B', async () => {
    const member = await quickMember(a, 'leaver')
    expect((await api(b, 'GET', '/api/auth/me', { token: member.token })).statusCode).toBe(200)
    expect((await api(a, 'POST', '/api/auth/logout', { token: member.token })).statusCode).toBe(204)
    await eventually(async () => {
      expect((await api(b, 'GET', '/api/auth/me', { token: member.token })).statusCode).toBe(401)
    })
  })

  it("a followee's post on A appears in the feed cached on B; its deletion on A removes it", async () => {
    await feed(b, reader.token)
    const p = await publish(a, ann.token, 'posted on A')
    await eventually(async () => expect((await feed(b, reader.token)).posts[0]?.id).toBe(p.id))
    expect((await api(a, 'DELETE', `/api/posts/${p.id}`, { token: ann.token })).statusCode).toBe(204)
    await eventually(async () => expect(await inFeedOf(b, reader, p.id)).toBeUndefined())
  })

  it("a like on A shows on B's cached cards and flags", async () => {
    const p = await publish(a, ann.token, 'like me across')
    await eventually(async () => expect(await inFeedOf(b, reader, p.id)).toMatchObject({ likeCount: 0, liked: false }))
    expect((await api(a, 'POST', `/api/posts/${p.id}/like`, { token: reader.token })).statusCode).toBe(200)
    await eventually(async () => expect(await inFeedOf(b, reader, p.id)).toMatchObject({ likeCount: 1, liked: true }))
  })

  it("an edit on A shows on B's cached card, feed and search; a narrower audience takes it out of B's feed", async () => {
    const [oldWord, newWord] = [`w${randomBytes(4).toString('hex')}`, `w${randomBytes(4).toString('hex')}`]
    const found = async (app: FastifyInstance, q: string) =>
      ((await api(app, 'GET', `/api/posts/search?q=${q}`, { token: reader.token })).json() as { posts: Array<{ id: string }> }).posts.map(
        (x) => x.id,
      )
    const p = await publish(a, ann.token, `before the edit ${oldWord}`)
    await eventually(async () => expect(await inFeedOf(b, reader, p.id)).toMatchObject({ edited: false }))
    expect(await found(b, newWord)).toEqual([])
    const edit = (body: object) => api(a, 'PATCH', `/api/posts/${p.id}`, { token: ann.token, body })
    expect((await edit({ content: `after the edit ${newWord}` })).statusCode).toBe(200)
    await eventually(async () => expect(await inFeedOf(b, reader, p.id)).toMatchObject({ edited: true, content: `after the edit ${newWord}` }))
    await eventually(async () => expect(await found(b, newWord)).toEqual([p.id]))
    expect(await found(b, oldWord)).toEqual([])
    expect((await edit({ visibility: 'mentioned' })).statusCode).toBe(200)
    await eventually(async () => expect(await inFeedOf(b, reader, p.id)).toBeUndefined())
  })

  it("an unfollow on A empties B's cached feed of that member", async () => {
    const p = await publish(a, ann.token, 'still followed?')
    await eventually(async () => expect(await inFeedOf(b, reader, p.id)).toBeDefined())
    expect((await api(a, 'DELETE', `/api/users/${ann.id}/follow`, { token: reader.token })).statusCode).toBe(200)
    await eventually(async () => expect(await inFeedOf(b, reader, p.id)).toBeUndefined())
  })
  it("a like on A shows on B's cached notifications; marking it read on B shows on A", async () => {
    const fan = await quickMember(a, 'fan')
    const p = await publish(a, ann.token, 'notify across')
    const inbox = async (app: FastifyInstance) =>
      (await api(app, 'GET', '/api/notifications', { token: ann.token })).json() as {
        notifications: Array<{ id: string; read: boolean; post: { id: string } | null }>
        unreadCount: number
      }
    const before = (await inbox(b)).unreadCount
    await inbox(a)
    expect((await api(a, 'POST', `/api/posts/${p.id}/like`, { token: fan.token })).statusCode).toBe(200)
    await eventually(async () => expect((await inbox(b)).notifications[0]?.post?.id).toBe(p.id))
    const item = (await inbox(b)).notifications[0]!
    expect((await api(b, 'PATCH', `/api/notifications/${item.id}/read`, { token: ann.token })).statusCode).toBe(204)
    await eventually(async () => expect(await inbox(a)).toMatchObject({ unreadCount: before }))
    expect((await inbox(a)).notifications[0]).toMatchObject({ id: item.id, read: true })
  })
})
