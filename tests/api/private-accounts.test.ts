import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { feed, follow, type Member, publish, quickMember, quickMembers } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// Private accounts and follow requests (docs/product.md, "Private accounts and follow requests"): a follow of a
// private account is a pending request until the owner approves it; until then the account shows its header only.

const t = useTestApp()

const followRes = (who: Member, target: string, method: 'POST' | 'DELETE' = 'POST') =>
  api(t.app, method, `/api/users/${target}/follow`, { token: who.token })
const profile = async (who: Member, username: string, query = '') => {
  const res = await api(t.app, 'GET', `/api/users/${username}${query}`, { token: who.token })
  return { status: res.statusCode, body: res.json() as Schemas['UserProfileResponse'] }
}
const requests = async (who: Member, query = '') => {
  const res = await api(t.app, 'GET', `/api/follow-requests${query}`, { token: who.token })
  expect(res.statusCode).toBe(200)
  return res.json() as Schemas['FollowRequestsPage']
}
const approve = (who: Member, requester: string) =>
  api(t.app, 'POST', `/api/follow-requests/${requester}/approve`, { token: who.token })
const decline = (who: Member, requester: string) =>
  api(t.app, 'POST', `/api/follow-requests/${requester}/decline`, { token: who.token })
const setPrivate = async (who: Member, privateAccount: boolean) => {
  const res = await api(t.app, 'PATCH', '/api/users/profile', { token: who.token, body: { privateAccount } })
  expect(res.statusCode).toBe(200)
}
const list = async (who: Member, username: string, direction: 'followers' | 'following') => {
  const res = await api(t.app, 'GET', `/api/users/${username}/${direction}`, { token: who.token })
  expect(res.statusCode).toBe(200)
  const body = res.json() as Schemas['FollowersPage'] & Schemas['FollowingPage']
  return { ids: (direction === 'followers' ? body.followers : body.following).map((r) => r.id), restricted: body.restricted }
}
const stats = async (who: Member) => (await profile(who, who.username)).body.user.stats

async function privateMember(prefix: string): Promise<Member> {
  const member = await quickMember(t.app, prefix)
  await setPrivate(member, true)
  return member
}

describe('follow requests', () => {
  let owner: Member
  let asker: Member

  beforeAll(async () => {
    owner = await privateMember('owner')
    asker = await quickMember(t.app, 'asker')
  })

  it('a follow of a private account is a pending request, idempotent, and the owner lists it', async () => {
    const first = await followRes(asker, owner.id)
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({ following: false, requested: true, followers: 0 })
    expect((await followRes(asker, owner.id)).json()).toEqual({ following: false, requested: true, followers: 0 })
    expect((await profile(asker, owner.username)).body.user).toMatchObject({
      isFollowing: false,
      requested: true,
      restricted: true,
      privateAccount: true,
    })
    const page = await requests(owner)
    expect(page.requests.map((r) => r.id)).toEqual([asker.id])
    expect(page.requests[0]).toMatchObject({ username: asker.username, verified: false })
    expect(page.nextCursor).toBeNull()
    expect((await requests(asker)).requests).toEqual([])
    expect(await stats(owner)).toMatchObject({ followers: 0 })
  })

  it('approving makes the follow with exact counts, removes the request, and is idempotent', async () => {
    const res = await approve(owner, asker.id)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ following: true, followers: 1 })
    expect((await approve(owner, asker.id)).json()).toEqual({ following: true, followers: 1 })
    expect((await requests(owner)).requests).toEqual([])
    expect((await profile(asker, owner.username)).body.user).toMatchObject({
      isFollowing: true,
      requested: false,
      restricted: false,
    })
    expect(await stats(owner)).toMatchObject({ followers: 1 })
    expect(await stats(asker)).toMatchObject({ following: 1 })
    // Following again changes nothing; unfollowing is a real unfollow.
    expect((await followRes(asker, owner.id)).json()).toEqual({ following: true, requested: false, followers: 1 })
    expect((await followRes(asker, owner.id, 'DELETE')).json()).toEqual({ following: false, requested: false, followers: 0 })
    expect(await stats(asker)).toMatchObject({ following: 0 })
  })

  it('declining leaves no trace the requester can see', async () => {
    const other = await quickMember(t.app, 'declined')
    await followRes(other, owner.id)
    expect((await decline(owner, other.id)).statusCode).toBe(204)
    expect((await decline(owner, other.id)).statusCode).toBe(204)
    expect((await requests(owner)).requests).toEqual([])
    expect((await profile(other, owner.username)).body.user).toMatchObject({ isFollowing: false, requested: false })
    expect(await stats(owner)).toMatchObject({ followers: 0 })
    // Asking again is possible.
    expect((await followRes(other, owner.id)).json()).toMatchObject({ requested: true })
  })

  it('the requester cancels with DELETE /follow', async () => {
    const other = await quickMember(t.app, 'canceller')
    await followRes(other, owner.id)
    const res = await followRes(other, owner.id, 'DELETE')
    expect(res.json()).toEqual({ following: false, requested: false, followers: 0 })
    expect((await followRes(other, owner.id, 'DELETE')).json()).toEqual({ following: false, requested: false, followers: 0 })
    expect((await requests(owner)).requests.map((r) => r.id)).not.toContain(other.id)
    expect((await approve(owner, other.id)).statusCode).toBe(404)
  })

  it('refuses unknown ids and requests that are not the viewer\'s to approve (404)', async () => {
    const third = await privateMember('third')
    const pending = await quickMember(t.app, 'pending')
    await followRes(pending, third.id)
    // Someone else's request: not the owner's to approve or decline.
    const foreign = await approve(owner, pending.id)
    expect(foreign.statusCode).toBe(404)
    expect((foreign.json() as ErrorBody).error).toBe('Follow request not found')
    expect((await approve(pending, third.id)).statusCode).toBe(404)
    expect((await decline(owner, pending.id)).statusCode).toBe(204)
    expect((await requests(third)).requests.map((r) => r.id)).toEqual([pending.id])
    const unknown = '0190f2a4-0000-7000-8000-000000000000'
    expect((await approve(owner, unknown)).statusCode).toBe(404)
    expect((await decline(owner, unknown)).statusCode).toBe(404)
    expect((await approve(owner, 'not-an-id')).statusCode).toBe(404)
    expect((await followRes(asker, unknown)).statusCode).toBe(404)
    expect((await approve(owner, owner.id)).statusCode).toBe(404)
  })

  it('pages the incoming requests with cursor and limit, most recent first', async () => {
    const popular = await privateMember('popular')
    const fans = await quickMembers(t.app, 5, 'fan')
    for (const fan of fans) await followRes(fan, popular.id)
    const first = await requests(popular, '?limit=3')
    expect(first.requests.map((r) => r.id)).toEqual(fans.slice(2).reverse().map((f) => f.id))
    expect(first.nextCursor).not.toBeNull()
    const second = await requests(popular, `?limit=3&cursor=${first.nextCursor}`)
    expect(second.requests.map((r) => r.id)).toEqual(fans.slice(0, 2).reverse().map((f) => f.id))
    expect(second.nextCursor).toBeNull()
  })

  it('list rows tell the viewer which members are private and which requests are pending', async () => {
    const hub = await quickMember(t.app, 'hub')
    const closed = await privateMember('closed')
    const open = await quickMember(t.app, 'open')
    const viewer = await quickMember(t.app, 'viewer')
    await follow(t.app, closed, hub)
    await follow(t.app, open, hub)
    await followRes(viewer, closed.id)
    const res = await api(t.app, 'GET', `/api/users/${hub.username}/followers`, { token: viewer.token })
    const rows = (res.json() as Schemas['FollowersPage']).followers
    expect(rows.map((r) => [r.id, r.privateAccount, r.isFollowing, r.requested])).toEqual([
      [open.id, false, false, false],
      [closed.id, true, false, true],
    ])
  })

  it('a blocked pair cannot request, and a block removes a pending request', async () => {
    const walled = await privateMember('walled')
    const blocker = await quickMember(t.app, 'blocker')
    expect((await api(t.app, 'POST', `/api/blocks/user/${blocker.id}`, { token: walled.token })).statusCode).toBe(201)
    expect((await followRes(blocker, walled.id)).statusCode).toBe(404)
    const later = await quickMember(t.app, 'later')
    await followRes(later, walled.id)
    expect((await api(t.app, 'POST', `/api/blocks/user/${later.id}`, { token: walled.token })).statusCode).toBe(201)
    expect((await requests(walled)).requests).toEqual([])
    expect((await approve(walled, later.id)).statusCode).toBe(404)
  })

  it('counts exactly when many request, approve and cancel at once', async () => {
    const star = await privateMember('star')
    const fans = await quickMembers(t.app, 12, 'crowd')
    await Promise.all([...fans, ...fans.slice(0, 4)].map((f) => followRes(f, star.id)))
    expect((await requests(star, '?limit=100')).requests).toHaveLength(12)
    const answers = await Promise.all([
      ...fans.slice(0, 8).map((f) => approve(star, f.id)),
      ...fans.slice(0, 4).map((f) => approve(star, f.id)),
      ...fans.slice(8).map((f) => followRes(f, star.id, 'DELETE')),
    ])
    expect(answers.every((r) => r.statusCode === 200)).toBe(true)
    expect(await stats(star)).toMatchObject({ followers: 8 })
    expect((await requests(star)).requests).toEqual([])
    expect((await list(star, star.username, 'followers')).ids.sort()).toEqual(fans.slice(0, 8).map((f) => f.id).sort())
  })
})

describe('turning the account public', () => {
  it('approves every pending request with exact counts', async () => {
    const owner = await privateMember('opening')
    const fans = await quickMembers(t.app, 4, 'waiting')
    for (const fan of fans) await followRes(fan, owner.id)
    await setPrivate(owner, false)
    expect((await requests(owner)).requests).toEqual([])
    expect(await stats(owner)).toMatchObject({ followers: 4 })
    for (const fan of fans) {
      expect((await profile(fan, owner.username)).body.user).toMatchObject({ isFollowing: true, requested: false })
      expect(await stats(fan)).toMatchObject({ following: 1 })
    }
    // A public account is followed at once.
    const late = await quickMember(t.app, 'late')
    expect((await followRes(late, owner.id)).json()).toEqual({ following: true, requested: false, followers: 5 })
  })

  it('stays exact when requests race the switch', async () => {
    const owner = await privateMember('racing')
    const fans = await quickMembers(t.app, 10, 'racer')
    for (const fan of fans.slice(0, 5)) await followRes(fan, owner.id)
    await Promise.all([setPrivate(owner, false), ...fans.slice(5).map((f) => followRes(f, owner.id))])
    // Each later fan either requested before the switch (approved by it) or followed after it.
    expect((await requests(owner)).requests).toEqual([])
    expect(await stats(owner)).toMatchObject({ followers: 10 })
  })
})

describe('who sees a private account', () => {
  let owner: Member
  let follower: Member
  let requester: Member
  let stranger: Member
  let friend: Member
  let publicPost: Schemas['Post']
  let followersPost: Schemas['Post']
  let openThread: Schemas['Post']

  beforeAll(async () => {
    ;[owner, follower, requester, stranger, friend] = await Promise.all([
      quickMember(t.app, 'hidden'),
      quickMember(t.app, 'approved'),
      quickMember(t.app, 'requester'),
      quickMember(t.app, 'stranger'),
      quickMember(t.app, 'friend'),
    ])
    await follow(t.app, owner, friend)
    publicPost = await publish(t.app, owner.token, 'public words of a private member')
    followersPost = await publish(t.app, owner.token, 'for followers', { visibility: 'followers' })
    await publish(t.app, owner.token, 'a reply', { replyTo: publicPost.id })
    await api(t.app, 'POST', `/api/posts/${publicPost.id}/like`, { token: owner.token })
    openThread = await publish(t.app, friend.token, 'an open thread')
    await publish(t.app, owner.token, 'a reply elsewhere', { replyTo: openThread.id })
    // Followed before the account turned private: a follow stays a follow.
    await follow(t.app, follower, owner)
    // The stranger follows someone who reposts the owner's public post (before it turns private).
    await follow(t.app, stranger, follower)
    expect((await api(t.app, 'POST', `/api/posts/${publicPost.id}/repost`, { token: follower.token })).statusCode).toBe(200)
    // Warm the caches that are about to go stale.
    expect((await feed(t.app, stranger.token)).posts.map((p) => p.id)).toContain(publicPost.id)
    await setPrivate(owner, true)
    await followRes(requester, owner.id)
  })

  const repliesUnder = async (who: Member) => {
    const res = await api(t.app, 'GET', `/api/posts/${openThread.id}`, { token: who.token })
    expect(res.statusCode).toBe(200)
    return (res.json() as Schemas['PostDetailResponse']).replies.map((p) => p.content)
  }
  const contents = async (who: Member, tab: string) =>
    (await profile(who, owner.username, `?tab=${tab}`)).body.posts.map((p) => p.content)

  it('the owner and an approved follower see everything', async () => {
    for (const who of [owner, follower]) {
      const { body } = await profile(who, owner.username)
      expect(body.user).toMatchObject({ privateAccount: true, restricted: false })
      expect(body.posts.map((p) => p.id)).toEqual(expect.arrayContaining([publicPost.id, followersPost.id]))
      expect(await contents(who, 'replies')).toEqual(['a reply elsewhere', 'a reply'])
      expect(await contents(who, 'likes')).toEqual(['public words of a private member'])
      expect((await api(t.app, 'GET', `/api/posts/${publicPost.id}`, { token: who.token })).statusCode).toBe(200)
      expect((await list(who, owner.username, 'following')).ids).toEqual([friend.id])
      expect((await list(who, owner.username, 'followers')).restricted).toBeUndefined()
      expect(await repliesUnder(who)).toEqual(['a reply elsewhere'])
    }
    expect((await feed(t.app, follower.token)).posts.map((p) => p.id)).toContain(publicPost.id)
  })

  it('a requester and a stranger see the header only', async () => {
    for (const who of [requester, stranger]) {
      const { status, body } = await profile(who, owner.username)
      expect(status).toBe(200)
      expect(body.user).toMatchObject({
        id: owner.id,
        privateAccount: true,
        restricted: true,
        isFollowing: false,
        requested: who === requester,
        stats: { followers: 1, following: 1 },
      })
      expect(body.posts).toEqual([])
      for (const tab of ['replies', 'media', 'likes']) expect(await contents(who, tab)).toEqual([])
      for (const direction of ['followers', 'following'] as const) {
        expect(await list(who, owner.username, direction)).toEqual({ ids: [], restricted: true })
      }
      for (const post of [publicPost, followersPost]) {
        const res = await api(t.app, 'GET', `/api/posts/${post.id}`, { token: who.token })
        expect(res.statusCode).toBe(404)
        expect((res.json() as ErrorBody).error).toBe('Post not found')
      }
      // Nor their replies under someone else's post.
      expect(await repliesUnder(who)).toEqual([])
      expect((await api(t.app, 'POST', `/api/posts/${publicPost.id}/like`, { token: who.token })).statusCode).toBe(404)
    }
    // Not through a repost in the feed either.
    expect((await feed(t.app, stranger.token)).posts.map((p) => p.id)).not.toContain(publicPost.id)
  })

  it('once approved, the requester sees the posts', async () => {
    expect((await approve(owner, requester.id)).statusCode).toBe(200)
    const { body } = await profile(requester, owner.username)
    expect(body.user).toMatchObject({ restricted: false, isFollowing: true, requested: false })
    expect(body.posts.map((p) => p.id)).toEqual(expect.arrayContaining([publicPost.id, followersPost.id]))
    expect((await feed(t.app, requester.token)).posts.map((p) => p.id)).toContain(publicPost.id)
  })

  it('turning public again shows the public posts to everyone, followers-only ones stay protected', async () => {
    await setPrivate(owner, false)
    const { body } = await profile(stranger, owner.username)
    expect(body.user).toMatchObject({ restricted: false, privateAccount: false })
    expect(body.posts.map((p) => p.id)).toContain(publicPost.id)
    expect(body.posts.map((p) => p.id)).not.toContain(followersPost.id)
    expect((await feed(t.app, stranger.token)).posts.map((p) => p.id)).toContain(publicPost.id)
    expect((await api(t.app, 'GET', `/api/posts/${followersPost.id}`, { token: stranger.token })).statusCode).toBe(404)
    await setPrivate(owner, true)
    expect((await feed(t.app, stranger.token)).posts.map((p) => p.id)).not.toContain(publicPost.id)
  })
})
