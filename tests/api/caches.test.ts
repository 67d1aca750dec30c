import { beforeAll, describe, expect, it } from 'vitest'
import { feed, follow, type Member, publish, quickMember } from './content-helpers'
import { api, registerMember, STRONG_PASSWORD, useTestApp, loginBody, passwordChange } from './harness'

/**
 * The read caches (sessions, post cards, per-viewer flags, feed timelines) must never change an answer: each test
 * first reads so that the cache holds the state before a write, then checks the very next read shows the write.
 */

// About the caches themselves: on even when the suite runs with WREN_TEST_CACHES=off (tests/api/harness.ts).
const t = useTestApp({ caches: true })
let viewer: Member
let ann: Member
let bob: Member
let stranger: Member

beforeAll(async () => {
  ;[viewer, ann, bob, stranger] = await Promise.all([
    quickMember(t.app, 'viewer'),
    quickMember(t.app, 'ann'),
    quickMember(t.app, 'bob'),
    quickMember(t.app, 'stranger'),
  ])
  await follow(t.app, viewer, ann)
  await follow(t.app, viewer, bob)
  await follow(t.app, bob, ann)
})

const post = (who: Member, id: string) => api(t.app, 'GET', `/api/posts/${id}`, { token: who.token })
const like = async (who: Member, id: string) =>
  expect((await api(t.app, 'POST', `/api/posts/${id}/like`, { token: who.token })).statusCode).toBe(200)
const inFeed = async (who: Member, id: string) => (await feed(t.app, who.token)).posts.find((p) => p.id === id)

describe('cached feed and cards', () => {
  it('shows a like at once: the new count to everyone, liked to the one who liked', async () => {
    const p = await publish(t.app, ann.token, 'like me')
    expect(await inFeed(viewer, p.id)).toMatchObject({ likeCount: 0, liked: false })
    expect(await inFeed(bob, p.id)).toMatchObject({ likeCount: 0, liked: false })

    await like(viewer, p.id)
    expect(await inFeed(viewer, p.id)).toMatchObject({ likeCount: 1, liked: true })
    expect(await inFeed(bob, p.id)).toMatchObject({ likeCount: 1, liked: false })

    await like(bob, p.id)
    expect(await inFeed(viewer, p.id)).toMatchObject({ likeCount: 2, liked: true })
    await like(viewer, p.id)
    expect(await inFeed(viewer, p.id)).toMatchObject({ likeCount: 1, liked: false })
    expect((await post(bob, p.id)).json().post).toMatchObject({ likeCount: 1, liked: true })
  })

  it('drops a deleted post from the cached feed and its page at once', async () => {
    const p = await publish(t.app, ann.token, 'soon gone')
    expect(await inFeed(viewer, p.id)).toBeDefined()
    expect((await post(viewer, p.id)).statusCode).toBe(200)
    expect((await api(t.app, 'DELETE', `/api/posts/${p.id}`, { token: ann.token })).statusCode).toBe(204)
    expect(await inFeed(viewer, p.id)).toBeUndefined()
    expect((await post(viewer, p.id)).statusCode).toBe(404)
  })

  it('drops a deleted post that came into the feed through a repost by a followee', async () => {
    const p = await publish(t.app, stranger.token, 'reposted then deleted')
    expect((await api(t.app, 'POST', `/api/posts/${p.id}/repost`, { token: ann.token })).statusCode).toBe(200)
    expect((await inFeed(viewer, p.id))?.repostedBy).toMatchObject({ id: ann.id })
    expect((await api(t.app, 'DELETE', `/api/posts/${p.id}`, { token: stranger.token })).statusCode).toBe(204)
    expect(await inFeed(viewer, p.id)).toBeUndefined()
  })

  it("shows a followee's new post, reply and repost at once", async () => {
    await feed(t.app, viewer.token)
    const p = await publish(t.app, ann.token, 'brand new')
    expect((await feed(t.app, viewer.token)).posts[0]?.id).toBe(p.id)

    const reply = await publish(t.app, bob.token, 'a reply to ann', { replyTo: p.id })
    expect((await feed(t.app, viewer.token)).posts[0]?.id).toBe(reply.id)
    expect(await inFeed(viewer, p.id)).toMatchObject({ replyCount: 1 })

    const strangers = await publish(t.app, stranger.token, 'found by bob')
    expect(await inFeed(viewer, strangers.id)).toBeUndefined()
    expect((await api(t.app, 'POST', `/api/posts/${strangers.id}/repost`, { token: bob.token })).statusCode).toBe(200)
    expect((await feed(t.app, viewer.token)).posts[0]).toMatchObject({ id: strangers.id, repostedBy: { id: bob.id } })
    expect((await api(t.app, 'POST', `/api/posts/${strangers.id}/repost`, { token: bob.token })).statusCode).toBe(200)
    expect(await inFeed(viewer, strangers.id)).toBeUndefined()
  })

  it("removes an unfollowed member's posts at once, and brings them back on follow", async () => {
    const follower = await quickMember(t.app, 'fickle')
    await follow(t.app, follower, ann)
    const p = await publish(t.app, ann.token, 'for my followers', { visibility: 'followers' })
    expect(await inFeed(follower, p.id)).toBeDefined()
    const unfollow = await api(t.app, 'DELETE', `/api/users/${ann.id}/follow`, { token: follower.token })
    expect(unfollow.statusCode).toBe(200)
    expect((await feed(t.app, follower.token)).posts.filter((x) => x.author.id === ann.id)).toEqual([])
    // Followers-only: no longer visible anywhere, although its card is cached.
    expect((await post(follower, p.id)).statusCode).toBe(404)
    await follow(t.app, follower, ann)
    expect(await inFeed(follower, p.id)).toBeDefined()
  })

  it('never shows a followers-only post or reply count to a non-follower through a cache', async () => {
    const p = await publish(t.app, ann.token, 'public with a private reply')
    const hidden = await publish(t.app, bob.token, 'followers of bob only', { replyTo: p.id, visibility: 'followers' })
    // viewer follows bob: sees the reply counted; stranger does not, though the card is the same cached one.
    expect(await inFeed(viewer, p.id)).toMatchObject({ replyCount: 1 })
    expect((await post(stranger, p.id)).json()).toMatchObject({ post: { replyCount: 0 }, replies: [] })
    expect((await post(viewer, p.id)).json().replies).toHaveLength(1)
    const profile = await api(t.app, 'GET', `/api/users/${bob.username}?tab=replies`, { token: stranger.token })
    expect((profile.json() as { posts: Array<{ id: string }> }).posts.map((x) => x.id)).not.toContain(hidden.id)
    expect((await post(stranger, hidden.id)).statusCode).toBe(404)
  })

  it("shows a profile change on the author's cached cards at once", async () => {
    const p = await publish(t.app, ann.token, 'who wrote this?')
    expect((await inFeed(viewer, p.id))?.author.displayName).not.toBe('Ann Renamed')
    const res = await api(t.app, 'PATCH', '/api/users/profile', { token: ann.token, body: { displayName: 'Ann Renamed' } })
    expect(res.statusCode).toBe(200)
    expect((await inFeed(viewer, p.id))?.author.displayName).toBe('Ann Renamed')
  })
})

describe('cached sessions', () => {
  it('refuses a token at once after logout', async () => {
    const member = await quickMember(t.app, 'leaver')
    expect((await api(t.app, 'GET', '/api/auth/me', { token: member.token })).statusCode).toBe(200)
    expect((await api(t.app, 'POST', '/api/auth/logout', { token: member.token })).statusCode).toBe(204)
    expect((await api(t.app, 'GET', '/api/auth/me', { token: member.token })).statusCode).toBe(401)
    expect((await api(t.app, 'GET', '/api/posts/feed', { token: member.token })).statusCode).toBe(401)
  })

  it("ends the member's other sessions at once on a password change, and the kept one knows the new password", async () => {
    const member = await registerMember(t.app)
    const login = await api(t.app, 'POST', '/api/auth/login', {
      body: loginBody(member.user.username, STRONG_PASSWORD),
    })
    const other = (login.json() as { token: string }).token
    for (const token of [member.token, other]) {
      expect((await api(t.app, 'GET', '/api/auth/me', { token })).statusCode).toBe(200)
    }
    const change = (currentPassword: string, newPassword: string) =>
      api(t.app, 'POST', '/api/auth/change-password', { token: member.token, body: passwordChange(currentPassword, newPassword) })
    expect((await change(STRONG_PASSWORD, 'Brand-New-Pass-7')).statusCode).toBe(200)
    expect((await api(t.app, 'GET', '/api/auth/me', { token: other })).statusCode).toBe(401)
    expect((await api(t.app, 'GET', '/api/auth/me', { token: member.token })).statusCode).toBe(200)
    // The kept session's cached row must not hold the old hash.
    expect((await change('Brand-New-Pass-7', 'Another-Pass-8')).statusCode).toBe(200)
  })
})
