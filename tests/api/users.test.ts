import { access } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import {
  field,
  file,
  follow,
  type Member,
  png,
  publish,
  quickMember,
  quickMembers,
  send,
  svg,
} from './content-helpers'
import { api, type ErrorBody, registration, useTestApp } from './harness'

const t = useTestApp()
let ann: Member
let bob: Member

beforeAll(async () => {
  ;[ann, bob] = await Promise.all([quickMember(t.app, 'ann'), quickMember(t.app, 'bob')])
})

const profile = async (who: Member, username: string, query = '') => {
  const res = await api(t.app, 'GET', `/api/users/${username}${query}`, { token: who.token })
  return { status: res.statusCode, body: res.json() as Schemas['UserProfileResponse'] }
}
const followRes = (who: Member, target: string, method: 'POST' | 'DELETE' = 'POST') =>
  api(t.app, method, `/api/users/${target}/follow`, { token: who.token })

describe('GET /users/{username}', () => {
  it('answers the profile with stats, isFollowing, and contentSettings only for oneself', async () => {
    const other = await profile(bob, ann.username.toUpperCase())
    expect(other.status).toBe(200)
    expect(other.body.user).toMatchObject({
      id: ann.id,
      username: ann.username,
      isFollowing: false,
      stats: { following: 0, followers: 0, posts: 0 },
    })
    expect(other.body.user).not.toHaveProperty('contentSettings')
    expect(other.body.user).not.toHaveProperty('email')
    const own = await profile(ann, ann.username)
    expect(own.body.user.contentSettings).toEqual({
      showSensitiveContent: false,
      allowDMs: 'everyone',
      allowMentions: 'everyone',
    })
    const missing = await profile(ann, 'nobody_by_that_name')
    expect(missing.status).toBe(404)
    expect((missing.body as unknown as ErrorBody).error).toBe('User not found')
  })

  it('shows on each tab what its name says', async () => {
    const writer = await quickMember(t.app, 'writer')
    const original = await publish(t.app, writer.token, 'an original')
    const others = await publish(t.app, bob.token, 'bob writes')
    await publish(t.app, writer.token, 'a reply', { replyTo: others.id })
    const media = await send(t.app, 'POST', '/api/posts', writer.token, [
      field('content', 'a picture'),
      file('media', 'p.png', 'image/png', await png()),
    ])
    expect(media.statusCode).toBe(201)
    await api(t.app, 'POST', `/api/posts/${others.id}/repost`, { token: writer.token })
    await api(t.app, 'POST', `/api/posts/${original.id}/repost`, { token: writer.token })
    await api(t.app, 'POST', `/api/posts/${others.id}/like`, { token: writer.token })

    const tab = async (name: string) =>
      (await profile(ann, writer.username, `?tab=${name}`)).body.posts.map((p) =>
        p.repostedBy ? `${p.content} (via ${p.repostedBy.username})` : p.content,
      )
    expect(await tab('posts')).toEqual([`bob writes (via ${writer.username})`, 'a picture', 'an original'])
    expect(await tab('replies')).toEqual(['a reply'])
    expect(await tab('media')).toEqual(['a picture'])
    expect(await tab('likes')).toEqual(['bob writes'])
    expect((await profile(ann, writer.username)).body.posts).toHaveLength(3)
    expect((await profile(ann, writer.username)).body.user.stats.posts).toBe(3)
    const bad = await api(t.app, 'GET', `/api/users/${writer.username}?tab=friends`, { token: ann.token })
    expect(bad.statusCode).toBe(400)
  })

  it('pages a tab with its cursor', async () => {
    const writer = await quickMember(t.app, 'pager')
    for (let i = 0; i < 7; i += 1) await publish(t.app, writer.token, `p${i}`)
    const first = await profile(ann, writer.username, '?limit=4')
    expect(first.body.posts.map((p) => p.content)).toEqual(['p6', 'p5', 'p4', 'p3'])
    const second = await profile(ann, writer.username, `?limit=4&cursor=${first.body.nextCursor}`)
    expect(second.body.posts.map((p) => p.content)).toEqual(['p2', 'p1', 'p0'])
    expect(second.body.nextCursor).toBeNull()
  })
})

describe('follow and unfollow', () => {
  it('refuses following oneself and unknown members', async () => {
    const self = await followRes(ann, ann.id)
    expect(self.statusCode).toBe(400)
    expect((self.json() as ErrorBody).error).toBe('You cannot follow yourself')
    expect((await followRes(ann, '0190f2a4-0000-7000-8000-000000000000')).statusCode).toBe(404)
    expect((await followRes(ann, 'not-an-id')).statusCode).toBe(404)
  })

  it('is idempotent both ways and answers the new state and count', async () => {
    const star = await quickMember(t.app, 'star')
    expect((await followRes(ann, star.id)).json()).toEqual({ following: true, requested: false, followers: 1 })
    expect((await followRes(ann, star.id)).json()).toEqual({ following: true, requested: false, followers: 1 })
    expect((await profile(ann, star.username)).body.user).toMatchObject({ isFollowing: true, stats: { followers: 1 } })
    expect((await followRes(ann, star.id, 'DELETE')).json()).toEqual({ following: false, requested: false, followers: 0 })
    expect((await followRes(ann, star.id, 'DELETE')).json()).toEqual({ following: false, requested: false, followers: 0 })
  })

  it('counts exactly under concurrency, including two members following each other at once', async () => {
    const star = await quickMember(t.app, 'popular')
    const fans = await quickMembers(t.app, 20, 'fan')
    const answers = await Promise.all([
      ...fans.map((f) => followRes(f, star.id)),
      ...fans.slice(0, 5).map((f) => followRes(f, star.id)),
      followRes(star, fans[0]?.id ?? ''),
    ])
    expect(answers.every((r) => r.statusCode === 200)).toBe(true)
    const starProfile = (await profile(star, star.username)).body.user
    expect(starProfile.stats).toMatchObject({ followers: 20, following: 1 })
    const fanProfile = (await profile(star, fans[0]?.username ?? '')).body.user
    expect(fanProfile.stats).toMatchObject({ followers: 1, following: 1 })

    await Promise.all(fans.map((f) => followRes(f, star.id, 'DELETE')))
    expect((await profile(star, star.username)).body.user.stats.followers).toBe(0)
  })
})

describe('followers and following lists', () => {
  it('pages 25 followers 20 at a time, most recent first, with isFollowing for the viewer', async () => {
    const star = await quickMember(t.app, 'listed')
    const fans = await quickMembers(t.app, 25, 'lf')
    for (const fan of fans) await follow(t.app, fan, star)
    await follow(t.app, ann, fans[24] as Member)

    const first = await api(t.app, 'GET', `/api/users/${star.username}/followers`, { token: ann.token })
    const page1 = first.json() as Schemas['FollowersPage']
    expect(page1.followers).toHaveLength(20)
    expect(page1.followers[0]).toMatchObject({ id: fans[24]?.id, isFollowing: true })
    expect(page1.followers[1]).toMatchObject({ id: fans[23]?.id, isFollowing: false })
    expect(page1.nextCursor).not.toBeNull()

    const second = await api(t.app, 'GET', `/api/users/${star.username}/followers?cursor=${page1.nextCursor}`, {
      token: ann.token,
    })
    const page2 = second.json() as Schemas['FollowersPage']
    expect(page2.followers.map((f) => f.id)).toEqual(fans.slice(0, 5).reverse().map((f) => f.id))
    expect(page2.nextCursor).toBeNull()

    const byPage = await api(t.app, 'GET', `/api/users/${star.username}/followers?page=2&limit=20`, { token: ann.token })
    expect((byPage.json() as Schemas['FollowersPage']).followers.map((f) => f.id)).toEqual(page2.followers.map((f) => f.id))

    const following = await api(t.app, 'GET', `/api/users/${fans[0]?.username}/following`, { token: ann.token })
    expect((following.json() as Schemas['FollowingPage']).following).toEqual([
      expect.objectContaining({ id: star.id, username: star.username, isFollowing: false }),
    ])
    const none = await api(t.app, 'GET', `/api/users/nobody_at_all_here/followers`, { token: ann.token })
    expect(none.statusCode).toBe(404)
  })
})

describe('own profile', () => {
  it('updates display name, bio and the private flag, and refuses what the rules refuse', async () => {
    const res = await api(t.app, 'PATCH', '/api/users/profile', {
      token: bob.token,
      body: { displayName: '  Bob B.  ', bio: 'b'.repeat(500), privateAccount: true },
    })
    expect(res.statusCode).toBe(200)
    expect((res.json() as Schemas['MeResponse']).user).toMatchObject({
      displayName: 'Bob B.',
      bio: 'b'.repeat(500),
      privateAccount: true,
    })
    const refused = [
      { displayName: 'x'.repeat(51) },
      { bio: 'b'.repeat(501) },
      { displayName: '   ' },
      { isAdmin: true },
      {},
    ]
    for (const body of refused) {
      const bad = await api(t.app, 'PATCH', '/api/users/profile', { token: bob.token, body })
      expect([JSON.stringify(body), bad.statusCode]).toEqual([JSON.stringify(body), 400])
    }
  })

  it('updates privacy settings', async () => {
    const res = await api(t.app, 'PATCH', '/api/users/settings/privacy', {
      token: bob.token,
      body: { showSensitiveContent: true, allowDMs: 'following', allowMentions: 'none' },
    })
    expect((res.json() as Schemas['MeResponse']).user.contentSettings).toEqual({
      showSensitiveContent: true,
      allowDMs: 'following',
      allowMentions: 'none',
    })
    const bad = await api(t.app, 'PATCH', '/api/users/settings/privacy', { token: bob.token, body: { allowDMs: 'all' } })
    expect(bad.statusCode).toBe(400)
  })

  it('replaces the avatar (400 px square) and the banner (1500x500), deleting the old files', async () => {
    const first = await send(t.app, 'POST', '/api/users/profile/avatar', ann.token, [
      file('image', 'me.png', 'image/png', await png(900, 600)),
    ])
    expect(first.statusCode).toBe(200)
    const firstUrl = (first.json() as Schemas['MeResponse']).user.avatar ?? ''
    expect(firstUrl).toMatch(/^\/media\/avatars\/.+\.webp$/)
    const served = await t.app.inject({ method: 'GET', url: firstUrl })
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 400, height: 400 })

    const second = await send(t.app, 'POST', '/api/users/profile/avatar', ann.token, [
      file('image', 'me2.png', 'image/png', await png(50, 50, '#fff')),
    ])
    const secondUrl = (second.json() as Schemas['MeResponse']).user.avatar ?? ''
    expect(secondUrl).not.toBe(firstUrl)
    expect((await t.app.inject({ method: 'GET', url: firstUrl })).statusCode).toBe(404)
    await expect(access(path.join(t.database.dataDir, firstUrl))).rejects.toThrow()
    await access(path.join(t.database.dataDir, secondUrl))
    expect((await t.app.inject({ method: 'GET', url: secondUrl })).statusCode).toBe(200)

    const banner = await send(t.app, 'POST', '/api/users/profile/banner', ann.token, [
      file('image', 'b.png', 'image/png', await png(300, 300)),
    ])
    const bannerUrl = (banner.json() as Schemas['MeResponse']).user.banner ?? ''
    const bannerFile = await t.app.inject({ method: 'GET', url: bannerUrl })
    expect(await sharp(bannerFile.rawPayload).metadata()).toMatchObject({ width: 1500, height: 500 })
    expect((await profile(bob, ann.username)).body.user).toMatchObject({ avatar: secondUrl, banner: bannerUrl })
  })

  it('refuses an SVG, a video, two images, or no image as avatar', async () => {
    const image = await png()
    const cases = [
      [file('image', 'a.svg', 'image/svg+xml', svg)],
      [file('image', 'v.mp4', 'video/mp4', Buffer.concat([Buffer.from([0, 0, 0, 32]), Buffer.from('ftypisom'), Buffer.alloc(64)]))],
      [file('image', 'a.png', 'image/png', image), file('image', 'b.png', 'image/png', image)],
      [],
    ]
    for (const parts of cases) {
      const res = await send(t.app, 'POST', '/api/users/profile/avatar', ann.token, parts)
      expect(res.statusCode).toBe(400)
    }
  })
})

describe('reserved usernames', () => {
  it('refuses names that collide with routes, whatever their case', async () => {
    for (const username of ['search', 'Settings', 'PROFILE', 'promote', 'demote']) {
      const res = await api(t.app, 'POST', '/api/auth/register', { body: registration({ username }) })
      expect(res.statusCode).toBe(400)
      expect((res.json() as ErrorBody).error).toBe(`The username "${username}" is reserved; please choose another`)
    }
  })
})
