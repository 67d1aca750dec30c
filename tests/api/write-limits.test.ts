import { readdir } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { waitText } from '../../server/lib/rate-limiter'
import { field, file, locatedVideo, png, publish, quickMember, send, type Member } from './content-helpers'
import { api, buildTestApp, type ErrorBody, useTestApp } from './harness'

// Small limits so a test can reach them; windows long enough never to end during the run.
const hour = 60 * 60_000
const t = useTestApp({
  config: {
    rateLimits: true,
    postLimitPerMember: { max: 2, windowMs: 3 * hour },
    mediaLimitPerMember: { max: 3, windowMs: hour / 2 },
    // In bytes, as the setting's parser gives it: two of the 5.6 KB fixture clips fit, a third does not.
    mediaMegabytesPerMember: { max: 12_000, windowMs: 24 * hour },
    followLimitPerMember: { max: 2, windowMs: 24 * hour },
    reactionLimitPerMember: { max: 3, windowMs: hour },
    reportLimitPerMember: { max: 1, windowMs: 24 * hour },
    listWriteLimitPerMember: { max: 3, windowMs: hour },
  },
})

function expectLimited(res: LightMyRequestResponse, what: string, windowMs: number) {
  expect(res.statusCode).toBe(429)
  const retryAfter = Number(res.headers['retry-after'])
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000)
  expect(res.json<ErrorBody>()).toEqual({ error: `Too many ${what}. Try again in ${waitText(retryAfter)}.` })
}

const post = (who: Member, content: string, ...media: Parameters<typeof file>[]) =>
  send(t.app, 'POST', '/api/posts', who.token, [field('content', content), ...media.map((m) => file(...m))])

async function profileOf(viewer: Member, who: Member): Promise<Schemas['UserProfile']> {
  const res = await api(t.app, 'GET', `/api/users/${who.username}`, { token: viewer.token })
  expect(res.statusCode).toBe(200)
  return res.json<Schemas['UserProfileResponse']>().user
}

async function mediaFiles(): Promise<number> {
  const dir = path.join(t.database.dataDir, 'media')
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((e) => e.isFile()).length
}

describe('posts', () => {
  it('limits posts and replies per member; the refused one is not published; others are not affected', async () => {
    const ann = await quickMember(t.app, 'poster')
    const first = await publish(t.app, ann.token, 'one')
    const reply = await send(t.app, 'POST', '/api/posts', ann.token, [field('content', 'two'), field('replyTo', first.id)])
    expect(reply.statusCode).toBe(201)
    expectLimited(await post(ann, 'three'), 'posts', 3 * hour)
    expect((await profileOf(ann, ann)).stats.posts).toBe(2)
    const bob = await quickMember(t.app, 'other')
    expect((await post(bob, 'mine')).statusCode).toBe(201)
  })

  it('limits media files per member, and a refused post stores no file', async () => {
    const ann = await quickMember(t.app, 'photog')
    const photo = async (name: string) => ['media', name, 'image/png', await png()] as Parameters<typeof file>
    expect((await post(ann, 'album', await photo('a.png'), await photo('b.png'))).statusCode).toBe(201)
    const stored = await mediaFiles()
    expectLimited(await post(ann, 'more', await photo('c.png'), await photo('d.png')), 'media uploads', hour / 2)
    expect(await mediaFiles()).toBe(stored)
    expect((await profileOf(ann, ann)).stats.posts).toBe(1)
    // The refused post counted nothing: one more photo still fits in the three.
    expect((await post(ann, 'last', await photo('e.png'))).statusCode).toBe(201)
  })

  it('limits the bytes of media per member', async () => {
    const ann = await quickMember(t.app, 'filmer')
    const clip = async (name: string) => ['media', name, 'video/mp4', await locatedVideo.mp4()] as Parameters<typeof file>
    expect((await post(ann, 'two clips', await clip('a.mp4'), await clip('b.mp4'))).statusCode).toBe(201)
    expectLimited(await post(ann, 'third clip', await clip('c.mp4')), 'megabytes of media', 24 * hour)
    // Text alone still posts: only media was over.
    expect((await post(ann, 'just words')).statusCode).toBe(201)
  })
})

describe('follows', () => {
  it('limits follows; the refused one is not made; unfollowing always works', async () => {
    const [ann, a, b, c] = [await quickMember(t.app, 'fan'), ...(await Promise.all([1, 2, 3].map(() => quickMember(t.app, 'star'))))]
    if (!ann || !a || !b || !c) throw new Error('members')
    const followUser = (who: Member) => api(t.app, 'POST', `/api/users/${who.id}/follow`, { token: ann.token })
    expect((await followUser(a)).statusCode).toBe(200)
    expect((await followUser(b)).statusCode).toBe(200)
    expectLimited(await followUser(c), 'follows', 24 * hour)
    const refused = await profileOf(ann, c)
    expect(refused.isFollowing).toBe(false)
    expect(refused.stats.followers).toBe(0)
    expect((await api(t.app, 'DELETE', `/api/users/${a.id}/follow`, { token: ann.token })).statusCode).toBe(200)
  })
})

describe('likes and reposts', () => {
  it('counts likes, unlikes and reposts together; the refused one changes no count', async () => {
    const author = await quickMember(t.app, 'author')
    const fan = await quickMember(t.app, 'liker')
    const target = await publish(t.app, author.token, 'likeable')
    const like = () => api(t.app, 'POST', `/api/posts/${target.id}/like`, { token: fan.token })
    expect((await like()).json()).toMatchObject({ liked: true, likeCount: 1 })
    expect((await like()).json()).toMatchObject({ liked: false, likeCount: 0 })
    expect((await api(t.app, 'POST', `/api/posts/${target.id}/repost`, { token: fan.token })).statusCode).toBe(200)
    expectLimited(await like(), 'likes and reposts', hour)
    const seen = await api(t.app, 'GET', `/api/posts/${target.id}`, { token: author.token })
    expect(seen.json<{ post: Schemas['Post'] }>().post).toMatchObject({ likeCount: 0, repostCount: 1 })
  })
})

describe('reports', () => {
  it('limits reports; the refused one is not filed', async () => {
    const ann = await quickMember(t.app, 'reporter')
    const [spammer, other] = [await quickMember(t.app, 'spam'), await quickMember(t.app, 'spam')]
    const report = (who: Member) =>
      api(t.app, 'POST', '/api/reports/user', { token: ann.token, body: { userId: who.id, reason: 'Spam' } })
    expect((await report(spammer)).statusCode).toBe(201)
    expectLimited(await report(other), 'reports', 24 * hour)
    const mine = await api(t.app, 'GET', '/api/reports', { token: ann.token })
    expect(mine.json<{ reports: unknown[] }>().reports).toHaveLength(1)
  })
})

describe('lists and bookmarks', () => {
  it('counts list, bookmark and collection writes together; the refused one is not made', async () => {
    const ann = await quickMember(t.app, 'curator')
    const bob = await quickMember(t.app, 'listed')
    const target = await publish(t.app, bob.token, 'keep this')
    const list = await api(t.app, 'POST', '/api/lists', { token: ann.token, body: { name: 'Friends' } })
    expect(list.statusCode).toBe(201)
    const listId = list.json<{ list: { id: string } }>().list.id
    const member = await api(t.app, 'POST', `/api/lists/${listId}/members`, { token: ann.token, body: { userId: bob.id } })
    expect(member.statusCode).toBe(201)
    const saved = await api(t.app, 'POST', '/api/bookmarks', { token: ann.token, body: { postId: target.id } })
    expect(saved.statusCode).toBe(201)
    const collection = await api(t.app, 'POST', '/api/bookmarks/collections', { token: ann.token, body: { name: 'Later' } })
    expectLimited(collection, 'changes to lists and bookmarks', hour)
    const collections = await api(t.app, 'GET', '/api/bookmarks/collections', { token: ann.token })
    expect(collections.json<{ collections: unknown[] }>().collections).toEqual([])
  })
})

describe('RATE_LIMITS=off', () => {
  let unlimited: FastifyInstance | undefined
  afterAll(async () => {
    await unlimited?.close()
  })

  it('turns every write limit off', async () => {
    const one = { max: 1, windowMs: hour }
    unlimited = await buildTestApp(t.database, {
      config: {
        rateLimits: false,
        postLimitPerMember: one,
        mediaLimitPerMember: one,
        mediaMegabytesPerMember: { max: 1, windowMs: hour },
        followLimitPerMember: one,
        reactionLimitPerMember: one,
        reportLimitPerMember: one,
        listWriteLimitPerMember: one,
      },
    })
    const ann = await quickMember(unlimited, 'free')
    const bob = await quickMember(unlimited, 'free')
    for (let i = 0; i < 3; i += 1) {
      const res = await send(unlimited, 'POST', '/api/posts', ann.token, [
        field('content', `post ${i}`),
        file('media', 'p.png', 'image/png', await png()),
      ])
      expect(res.statusCode).toBe(201)
      const id = res.json<{ post: { id: string } }>().post.id
      expect((await api(unlimited, 'POST', `/api/posts/${id}/like`, { token: bob.token })).statusCode).toBe(200)
      expect((await api(unlimited, 'POST', '/api/bookmarks', { token: bob.token, body: { postId: id } })).statusCode).toBe(201)
    }
    for (let i = 0; i < 2; i += 1) {
      expect((await api(unlimited, 'POST', `/api/users/${ann.id}/follow`, { token: bob.token })).statusCode).toBe(200)
    }
  })
})
