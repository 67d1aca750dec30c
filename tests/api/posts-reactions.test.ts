import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { users } from '../../server/db/schema'
import type { Schemas } from '../../server/http/handler-types'
import { ViewCounter } from '../../server/modules/posts/views'
import {
  feed,
  field,
  file,
  follow,
  type Member,
  png,
  publish,
  quickMember,
  quickMembers,
  send,
} from './content-helpers'
import { api, buildTestApp, type ErrorBody, useTestApp } from './harness'

const t = useTestApp()
let author: Member
let crowd: Member[]

beforeAll(async () => {
  author = await quickMember(t.app, 'author')
  crowd = await quickMembers(t.app, 20, 'fan')
})

const postDetail = async (who: Member, id: string) => {
  const res = await api(t.app, 'GET', `/api/posts/${id}`, { token: who.token })
  return { status: res.statusCode, body: res.json() as Schemas['PostDetailResponse'] }
}
const postsCount = async (member: Member) => {
  const [row] = await t.app.services.db.select({ n: users.postsCount }).from(users).where(eq(users.id, member.id))
  return row?.n
}

describe('likes and reposts', () => {
  it('counts twenty concurrent likes exactly, and twenty concurrent unlikes back to zero', async () => {
    const post = await publish(t.app, author.token, 'like me')
    const likes = await Promise.all(
      crowd.map((m) => api(t.app, 'POST', `/api/posts/${post.id}/like`, { token: m.token })),
    )
    expect(likes.every((r) => r.statusCode === 200 && (r.json() as Schemas['LikeResponse']).liked)).toBe(true)
    expect(Math.max(...likes.map((r) => (r.json() as Schemas['LikeResponse']).likeCount))).toBe(20)
    expect((await postDetail(crowd[0] as Member, post.id)).body.post).toMatchObject({ likeCount: 20, liked: true })

    const unlikes = await Promise.all(
      crowd.map((m) => api(t.app, 'POST', `/api/posts/${post.id}/like`, { token: m.token })),
    )
    expect(unlikes.every((r) => !(r.json() as Schemas['LikeResponse']).liked)).toBe(true)
    expect((await postDetail(author, post.id)).body.post).toMatchObject({ likeCount: 0, liked: false })
  })

  it('stays consistent when one member toggles many times at once', async () => {
    const post = await publish(t.app, author.token, 'click click')
    const fan = crowd[1] as Member
    const answers = await Promise.all(
      Array.from({ length: 11 }, () => api(t.app, 'POST', `/api/posts/${post.id}/like`, { token: fan.token })),
    )
    const states = answers.map((r) => r.json() as Schemas['LikeResponse'])
    // Serialised toggles: alternately liked and unliked, each answer's count matching its state.
    expect(states.filter((s) => s.liked)).toHaveLength(6)
    expect(states.every((s) => s.likeCount === (s.liked ? 1 : 0))).toBe(true)
    expect((await postDetail(fan, post.id)).body.post).toMatchObject({ likeCount: 1, liked: true })
  })

  it('toggles reposts with their count', async () => {
    const post = await publish(t.app, author.token, 'share me')
    const reposts = await Promise.all(
      crowd.slice(0, 10).map((m) => api(t.app, 'POST', `/api/posts/${post.id}/repost`, { token: m.token })),
    )
    expect(reposts.every((r) => (r.json() as Schemas['RepostResponse']).reposted)).toBe(true)
    const again = await api(t.app, 'POST', `/api/posts/${post.id}/repost`, { token: crowd[0]?.token })
    expect(again.json()).toEqual({ reposted: false, repostCount: 9 })
    expect((await postDetail(crowd[1] as Member, post.id)).body.post).toMatchObject({ repostCount: 9, reposted: true })
  })

  it('answers 404 for posts that do not exist', async () => {
    for (const id of ['0190f2a4-0000-7000-8000-000000000000', 'nope']) {
      const res = await api(t.app, 'POST', `/api/posts/${id}/like`, { token: author.token })
      expect(res.statusCode).toBe(404)
    }
  })
})

describe('views', () => {
  it('counts a view when someone other than the author is shown the post, in batches', async () => {
    const post = await publish(t.app, author.token, 'look at me')
    await postDetail(author, post.id)
    await postDetail(crowd[2] as Member, post.id)
    await postDetail(crowd[3] as Member, post.id)
    await t.app.services.views.flush()
    expect((await postDetail(author, post.id)).body.post.views).toBe(2)
  })

  it('keeps views in memory until a flush writes the whole batch in one statement', async () => {
    const post = await publish(t.app, author.token, 'batched')
    const counter = new ViewCounter(t.app.services.db, (err) => { throw err }, 60_000)
    const shown = { id: post.id, authorId: author.id }
    counter.record(crowd[5]?.id ?? '', [shown])
    counter.record(crowd[6]?.id ?? '', [shown, shown])
    counter.record(author.id, [shown])
    const stored = async () => (await postDetail(author, post.id)).body.post.views
    expect(await stored()).toBe(0)
    await counter.close()
    expect(await stored()).toBe(3)
  })

  it('writes pending views when the app closes', async () => {
    const post = await publish(t.app, author.token, 'seen just before shutdown')
    const other = await buildTestApp(t.database)
    const res = await other.inject({ method: 'GET', url: `/api/posts/${post.id}`, headers: { authorization: `Bearer ${crowd[4]?.token}` } })
    expect(res.statusCode).toBe(200)
    await other.close()
    expect((await postDetail(author, post.id)).body.post.views).toBe(1)
  })
})

describe('DELETE /posts/{id}', () => {
  it('is for the author only', async () => {
    const post = await publish(t.app, author.token, 'mine')
    const res = await api(t.app, 'DELETE', `/api/posts/${post.id}`, { token: crowd[0]?.token })
    expect(res.statusCode).toBe(403)
    expect((res.json() as ErrorBody).error).toBe('You can only delete your own posts')
    expect((await api(t.app, 'DELETE', `/api/posts/${post.id}`, { token: author.token })).statusCode).toBe(204)
    expect((await api(t.app, 'DELETE', `/api/posts/${post.id}`, { token: author.token })).statusCode).toBe(404)
  })

  it('removes the post, its thread and its files from every surface and fixes every count', async () => {
    const [replier, reader] = await Promise.all([quickMember(t.app, 'replier'), quickMember(t.app, 'reader')])
    await follow(t.app, reader, author)
    const parent = await publish(t.app, author.token, 'parent')
    const withMedia = await send(t.app, 'POST', '/api/posts', author.token, [
      field('content', 'doomed'),
      field('replyTo', parent.id),
      file('media', 'a.png', 'image/png', await png()),
    ])
    const doomed = (withMedia.json() as Schemas['PostResponse']).post
    const reply = await publish(t.app, replier.token, 'reply to doomed', { replyTo: doomed.id })
    await publish(t.app, author.token, 'reply to the reply', { replyTo: reply.id })
    await api(t.app, 'POST', `/api/posts/${doomed.id}/like`, { token: reader.token })
    await api(t.app, 'POST', `/api/posts/${doomed.id}/repost`, { token: replier.token })

    expect((await postDetail(reader, parent.id)).body.post.replyCount).toBe(1)
    const authorBefore = await postsCount(author)
    const replierBefore = await postsCount(replier)
    const urls = doomed.media.flatMap((m) => [m.url, m.thumbnailUrl ?? ''])
    for (const url of urls) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200)

    expect((await api(t.app, 'DELETE', `/api/posts/${doomed.id}`, { token: author.token })).statusCode).toBe(204)

    expect((await postDetail(reader, doomed.id)).status).toBe(404)
    expect((await postDetail(reader, reply.id)).status).toBe(404)
    const parentAfter = await postDetail(reader, parent.id)
    expect(parentAfter.body.post.replyCount).toBe(0)
    expect(parentAfter.body.replies).toEqual([])
    expect(await postsCount(author)).toBe((authorBefore ?? 0) - 2)
    expect(await postsCount(replier)).toBe((replierBefore ?? 0) - 1)
    const { posts } = await feed(t.app, reader.token)
    expect(posts.map((p) => p.id)).not.toContain(doomed.id)
    const likesTab = await api(t.app, 'GET', `/api/users/${reader.username}?tab=likes`, { token: reader.token })
    expect((likesTab.json() as Schemas['UserProfileResponse']).posts).toEqual([])
    for (const url of urls) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404)
  })
})
