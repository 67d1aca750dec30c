import { describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { type Member, publish, quickMember } from './content-helpers'
import { api, useTestApp } from './harness'

// A viewer's profile first pages (head and first keys) are kept in memory (users/profile-first-pages.ts). Each test
// opens a profile first, so it is cached, then changes what it shows through the API and opens it again: the change
// must show at once. Caches on even when the suite runs with WREN_TEST_CACHES=off.

const t = useTestApp({ caches: true })

type Profile = { user: Schemas['UserProfile']; posts: Array<{ id: string; content: string }> }

async function open(viewer: Member, who: Member, query = ''): Promise<Profile> {
  const res = await api(t.app, 'GET', `/api/users/${who.username}${query}`, { token: viewer.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

async function ok(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, who: Member, body?: unknown): Promise<void> {
  const res = await api(t.app, method, url, { token: who.token, ...(body === undefined ? {} : { body }) })
  expect(res.statusCode, res.body).toBeLessThan(300)
}

const texts = (p: Profile) => p.posts.map((post) => post.content)

describe("a viewer's cached profile page", () => {
  it("shows the member's new post, its count, and their new name", async () => {
    const [viewer, ann] = [await quickMember(t.app, 'viewer'), await quickMember(t.app, 'ann')]
    await publish(t.app, ann.token, 'first')
    expect(await open(viewer, ann)).toMatchObject({ user: { stats: { posts: 1 } } })
    await publish(t.app, ann.token, 'second')
    const again = await open(viewer, ann)
    expect(texts(again)).toEqual(['second', 'first'])
    expect(again.user.stats.posts).toBe(2)
    await ok('PATCH', '/api/users/profile', ann, { displayName: 'Ann Again' })
    expect((await open(viewer, ann)).user.displayName).toBe('Ann Again')
  })

  it("shows the viewer's follow and anyone's in the counts, both ways", async () => {
    const [viewer, ann, cal] = [await quickMember(t.app, 'viewer'), await quickMember(t.app, 'ann'), await quickMember(t.app, 'cal')]
    expect((await open(viewer, ann)).user).toMatchObject({ isFollowing: false, stats: { followers: 0, following: 0 } })
    await ok('POST', `/api/users/${ann.id}/follow`, viewer)
    expect((await open(viewer, ann)).user).toMatchObject({ isFollowing: true, stats: { followers: 1 } })
    await ok('POST', `/api/users/${ann.id}/follow`, cal)
    expect((await open(viewer, ann)).user.stats.followers).toBe(2)
    await ok('POST', `/api/users/${cal.id}/follow`, ann)
    expect((await open(viewer, ann)).user.stats.following).toBe(1)
  })

  it('shows a deleted post gone, a repost made, and a like on the likes tab', async () => {
    const [viewer, ann, bob] = [await quickMember(t.app, 'viewer'), await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob')]
    const mine = await publish(t.app, ann.token, 'to delete')
    const theirs = await publish(t.app, bob.token, 'bob writes')
    expect(texts(await open(viewer, ann))).toEqual(['to delete'])
    expect(texts(await open(viewer, ann, '?tab=likes'))).toEqual([])
    await ok('DELETE', `/api/posts/${mine.id}`, ann)
    expect(texts(await open(viewer, ann))).toEqual([])
    await ok('POST', `/api/posts/${theirs.id}/repost`, ann)
    expect(texts(await open(viewer, ann))).toEqual(['bob writes'])
    await ok('POST', `/api/posts/${theirs.id}/like`, ann)
    expect(texts(await open(viewer, ann, '?tab=likes'))).toEqual(['bob writes'])
  })

  it('turns restricted when the member goes private, and absent when either side blocks', async () => {
    const [viewer, ann] = [await quickMember(t.app, 'viewer'), await quickMember(t.app, 'ann')]
    await publish(t.app, ann.token, 'public words')
    expect(texts(await open(viewer, ann))).toEqual(['public words'])
    await ok('PATCH', '/api/users/profile', ann, { privateAccount: true })
    const closed = await open(viewer, ann)
    expect(closed.user.restricted).toBe(true)
    expect(closed.posts).toEqual([])
    await ok('POST', `/api/blocks/user/${viewer.id}`, ann)
    expect((await api(t.app, 'GET', `/api/users/${ann.username}`, { token: viewer.token })).statusCode).toBe(404)
  })

  it('shows the mute and the follow request the viewer just made', async () => {
    const [viewer, ann] = [await quickMember(t.app, 'viewer'), await quickMember(t.app, 'ann')]
    await ok('PATCH', '/api/users/profile', ann, { privateAccount: true })
    expect((await open(viewer, ann)).user).toMatchObject({ muted: false, requested: false })
    await ok('POST', '/api/mutes/user', viewer, { userId: ann.id })
    await ok('POST', `/api/users/${ann.id}/follow`, viewer)
    expect((await open(viewer, ann)).user).toMatchObject({ muted: true, requested: true })
  })
})
