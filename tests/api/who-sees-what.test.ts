import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { feed, field, file, follow, type Member, png, publish, quickMember, send } from './content-helpers'
import { api, useTestApp } from './harness'

// Who sees what (docs/product.md, "Who sees what"): every read surface that exists, for every relation a viewer can
// have with an author, for a public and a private author. Each author writes the same five things; each viewer reads
// every surface; the expected answer comes from three questions only (may the viewer see the account's posts at all,
// its followers-only posts, and is the viewer on the other side of a block), so the table below is the rule itself.
// Runs on PGlite, PGlite with the caches off, and PostgreSQL (npm test).

const t = useTestApp()

type Role = 'owner' | 'follower' | 'requester' | 'stranger' | 'blocked' | 'blocker'
const ROLES: Role[] = ['owner', 'follower', 'requester', 'stranger', 'blocked', 'blocker']
type Kind = 'public' | 'private'

/** What one author wrote: a public post, a followers-only post, a public post with a photo, a reply, a like. */
interface Writing {
  author: Member
  publicPost: Schemas['Post']
  followersPost: Schemas['Post']
  photoPost: Schemas['Post']
  reply: Schemas['Post']
}

const call = (who: Member, url: string) => api(t.app, 'GET', url, { token: who.token })

async function setPrivate(who: Member) {
  const res = await api(t.app, 'PATCH', '/api/users/profile', { token: who.token, body: { privateAccount: true } })
  expect(res.statusCode).toBe(200)
}

async function photoPost(author: Member, content: string): Promise<Schemas['Post']> {
  const res = await send(t.app, 'POST', '/api/posts', author.token, [
    field('content', content),
    file('media', 'p.png', 'image/png', await png()),
  ])
  expect(res.statusCode).toBe(201)
  return (res.json() as Schemas['PostResponse']).post
}

let host: Member
let hostPost: Schemas['Post']
const writings = {} as Record<Kind, Writing>
const viewers = {} as Record<Kind, Record<Role, Member>>

beforeAll(async () => {
  host = await quickMember(t.app, 'host')
  hostPost = await publish(t.app, host.token, 'host asks a question')
  for (const kind of ['public', 'private'] as const) {
    const author = await quickMember(t.app, kind === 'public' ? 'pub' : 'priv')
    const [follower, requester, stranger, blocked, blocker] = (await Promise.all(
      ['fol', 'req', 'str', 'bkd', 'bkr'].map((p) => quickMember(t.app, `${kind[0]}${p}`)),
    )) as [Member, Member, Member, Member, Member]
    if (kind === 'private') await setPrivate(author)
    // Approved follower: on a private account the follow is a request the owner approves.
    await api(t.app, 'POST', `/api/users/${author.id}/follow`, { token: follower.token })
    if (kind === 'private') {
      const approved = await api(t.app, 'POST', `/api/follow-requests/${follower.id}/approve`, { token: author.token })
      expect(approved.statusCode).toBe(200)
      // A pending request, never approved.
      await api(t.app, 'POST', `/api/users/${author.id}/follow`, { token: requester.token })
    }
    // Both sides of a block once followed the author: the block removed those follows.
    for (const member of [blocked, blocker]) await follow(t.app, member, author)
    expect((await api(t.app, 'POST', `/api/blocks/user/${blocked.id}`, { token: author.token })).statusCode).toBe(201)
    expect((await api(t.app, 'POST', `/api/blocks/user/${author.id}`, { token: blocker.token })).statusCode).toBe(201)
    // The author follows everyone in the picture who may be followed, so the following list has rows to hide.
    for (const member of [follower, stranger]) await follow(t.app, author, member)

    writings[kind] = {
      author,
      publicPost: await publish(t.app, author.token, `${kind} author: public`),
      followersPost: await publish(t.app, author.token, `${kind} author: followers`, { visibility: 'followers' }),
      photoPost: await photoPost(author, `${kind} author: photo`),
      reply: await publish(t.app, author.token, `${kind} author: reply`, { replyTo: hostPost.id }),
    }
    expect((await api(t.app, 'POST', `/api/posts/${hostPost.id}/like`, { token: author.token })).statusCode).toBe(200)
    viewers[kind] = { owner: author, follower, requester, stranger, blocked, blocker }
  }
})

/** May the viewer see the account's posts at all, and its followers-only posts? */
function access(kind: Kind, role: Role): { walled: boolean; any: boolean; followersOnly: boolean } {
  const walled = role === 'blocked' || role === 'blocker'
  const insider = role === 'owner' || role === 'follower'
  return { walled, any: !walled && (insider || kind === 'public'), followersOnly: insider }
}

const cases = (['public', 'private'] as const).flatMap((kind) => ROLES.map((role) => [kind, role] as const))

describe.each(cases)('a %s author, read by their %s', (kind, role) => {
  const who = () => viewers[kind][role]
  const w = () => writings[kind]
  const rule = () => access(kind, role)

  it('post pages: each post opens exactly when the viewer may see it, else 404 "Post not found"', async () => {
    const expected: Array<[Schemas['Post'], boolean]> = [
      [w().publicPost, rule().any],
      [w().followersPost, rule().followersOnly],
      [w().photoPost, rule().any],
      [w().reply, rule().any],
    ]
    for (const [post, visible] of expected) {
      const res = await call(who(), `/api/posts/${post.id}`)
      expect(res.statusCode, post.content).toBe(visible ? 200 : 404)
      if (!visible) expect(res.json()).toEqual({ error: 'Post not found' })
    }
  })

  it("replies under a third member's post: the author's reply is listed exactly when it would open", async () => {
    const res = await call(who(), `/api/posts/${hostPost.id}`)
    expect(res.statusCode).toBe(200)
    const replies = (res.json() as Schemas['PostDetailResponse']).replies.map((p) => p.id)
    expect(replies.includes(w().reply.id)).toBe(rule().any)
  })

  it('home feed: the posts of an author the viewer follows (or is), nothing across a block or a pending request', async () => {
    const ids = (await feed(t.app, who().token)).posts.map((p) => p.id)
    const follows = role === 'owner' || role === 'follower'
    expect(ids.includes(w().publicPost.id)).toBe(follows)
    expect(ids.includes(w().followersPost.id)).toBe(follows)
    expect(ids.includes(w().photoPost.id)).toBe(follows)
    // A reply to a stranger (host) reaches only its author's feed.
    expect(ids.includes(w().reply.id)).toBe(role === 'owner')
  })

  it('profile: 404 across a block; a private header only to outsiders; each tab lists what the viewer may see', async () => {
    const username = w().author.username
    const res = await call(who(), `/api/users/${username}`)
    if (rule().walled) {
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ error: 'User not found' })
      return
    }
    expect(res.statusCode).toBe(200)
    expect((res.json() as Schemas['UserProfileResponse']).user.restricted).toBe(!rule().any)
    const tab = async (name: string) => {
      const page = await call(who(), `/api/users/${username}?tab=${name}`)
      expect(page.statusCode).toBe(200)
      return (page.json() as Schemas['UserProfileResponse']).posts.map((p) => p.id).sort()
    }
    const visible = (posts: Array<[Schemas['Post'], boolean]>) =>
      posts
        .filter(([, shown]) => shown)
        .map(([p]) => p.id)
        .sort()
    expect(await tab('posts')).toEqual(
      visible([
        [w().publicPost, rule().any],
        [w().followersPost, rule().followersOnly],
        [w().photoPost, rule().any],
      ]),
    )
    expect(await tab('replies')).toEqual(visible([[w().reply, rule().any]]))
    expect(await tab('media')).toEqual(visible([[w().photoPost, rule().any]]))
    expect(await tab('likes')).toEqual(visible([[hostPost, rule().any]]))
  })

  it('follower and following lists: 404 across a block, restricted for outsiders of a private account', async () => {
    for (const direction of ['followers', 'following'] as const) {
      const res = await call(who(), `/api/users/${w().author.username}/${direction}`)
      if (rule().walled) {
        expect(res.statusCode).toBe(404)
        continue
      }
      expect(res.statusCode).toBe(200)
      const body = res.json() as Schemas['FollowersPage'] & Schemas['FollowingPage']
      const rows = (direction === 'followers' ? body.followers : body.following).map((r) => r.username).sort()
      expect(body.restricted ?? false).toBe(!rule().any)
      const people = viewers[kind]
      // Followers: only the approved follower is left (the block removed the other two follows).
      const all = direction === 'followers' ? [people.follower.username] : [people.follower.username, people.stranger.username]
      expect(rows).toEqual(rule().any ? all.sort() : [])
    }
  })

  it('interactions: liking, reposting and replying answer 404 for every post the viewer may not see', async () => {
    const posts: Array<[Schemas['Post'], boolean]> = [
      [w().publicPost, rule().any],
      [w().followersPost, rule().followersOnly],
    ]
    for (const [post, visible] of posts) {
      if (role === 'owner') continue
      const like = await api(t.app, 'POST', `/api/posts/${post.id}/like`, { token: who().token })
      expect(like.statusCode, `like ${post.content}`).toBe(visible ? 200 : 404)
      if (visible) await api(t.app, 'POST', `/api/posts/${post.id}/like`, { token: who().token })
      if (post.visibility === 'public') {
        const repost = await api(t.app, 'POST', `/api/posts/${post.id}/repost`, { token: who().token })
        expect(repost.statusCode, `repost ${post.content}`).toBe(visible ? 200 : 404)
        if (visible) await api(t.app, 'POST', `/api/posts/${post.id}/repost`, { token: who().token })
      }
      const reply = await send(t.app, 'POST', '/api/posts', who().token, [
        field('content', 'a reply'),
        field('replyTo', post.id),
      ])
      expect(reply.statusCode, `reply to ${post.content}`).toBe(visible ? 201 : 404)
      if (visible) {
        const id = (reply.json() as Schemas['PostResponse']).post.id
        expect((await api(t.app, 'DELETE', `/api/posts/${id}`, { token: who().token })).statusCode).toBe(204)
      }
    }
  })
})
