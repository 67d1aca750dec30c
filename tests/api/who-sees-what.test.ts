import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { feed, field, file, follow, type Member, png, publish, quickMember, send } from './content-helpers'
import { api, useTestApp } from './harness'

// Who sees what (docs/product.md, "Who sees what"): every read surface that exists, for every relation a viewer can
// have with an author, for a public and a private author. Each author writes the same five things and reposts the
// same things (a third member's post, and each viewer's own post they may see); each viewer reads every surface
// (post pages, replies, home feed, profile, follow lists, a list timeline holding the author, post search, hashtag
// search, notifications); the expected answer comes from three questions only (may the viewer see the account's
// posts at all, its followers-only posts, and is the viewer on the other side of a block), so the table below is the
// rule itself. A repost follows its reposter: it reaches exactly the viewers who may see the author's posts.
// Runs on PGlite, PGlite with the caches off, and PostgreSQL (npm test).

const t = useTestApp()

type Role = 'owner' | 'follower' | 'requester' | 'stranger' | 'blocked' | 'blocker' | 'muter'
const ROLES: Role[] = ['owner', 'follower', 'requester', 'stranger', 'blocked', 'blocker', 'muter']
type Kind = 'public' | 'private'

/**
 * What one author wrote: a public post, a followers-only post (each with a hashtag of its own), a public post with a
 * photo, a reply, a like; and what they reposted: the host's shared post and every viewer's post they may see.
 */
interface Writing {
  author: Member
  publicPost: Schemas['Post']
  followersPost: Schemas['Post']
  photoPost: Schemas['Post']
  reply: Schemas['Post']
  /** Ids of the posts the author reposted. */
  reposted: string[]
  /** A public list of the curator's holding the author only. */
  listId: string
}

/** The hashtags of an author's public and followers-only posts. */
const openTag = (kind: Kind) => `${kind}opentag`
const quietTag = (kind: Kind) => `${kind}quiettag`

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
let sharedPost: Schemas['Post']
let curator: Member
const writings = {} as Record<Kind, Writing>
const viewers = {} as Record<Kind, Record<Role, Member>>
/** Each viewer's own post, which the author reposts when they may see it. */
const viewerPosts = {} as Record<Kind, Partial<Record<Role, Schemas['Post']>>>

beforeAll(async () => {
  host = await quickMember(t.app, 'host')
  hostPost = await publish(t.app, host.token, 'host asks a question')
  sharedPost = await publish(t.app, host.token, 'host shares a thought')
  // A third member who keeps a public list of each author: every viewer may read it.
  curator = await quickMember(t.app, 'cur')
  for (const kind of ['public', 'private'] as const) {
    const author = await quickMember(t.app, kind === 'public' ? 'pub' : 'priv')
    const [follower, requester, stranger, blocked, blocker, muter] = (await Promise.all(
      ['fol', 'req', 'str', 'bkd', 'bkr', 'mut'].map((p) => quickMember(t.app, `${kind[0]}${p}`)),
    )) as [Member, Member, Member, Member, Member, Member]
    if (kind === 'private') await setPrivate(author)
    // Approved followers: on a private account the follow is a request the owner approves. The muter follows the
    // author and muted them: one-way and silent, their posts leave the muter's home feed and nothing else.
    for (const fan of [follower, muter]) {
      await api(t.app, 'POST', `/api/users/${author.id}/follow`, { token: fan.token })
      if (kind === 'private') {
        const approved = await api(t.app, 'POST', `/api/follow-requests/${fan.id}/approve`, { token: author.token })
        expect(approved.statusCode).toBe(200)
      }
    }
    const muted = await api(t.app, 'POST', '/api/mutes/user', { token: muter.token, body: { userId: author.id } })
    expect(muted.statusCode).toBe(201)
    if (kind === 'private') {
      // A pending request, never approved.
      await api(t.app, 'POST', `/api/users/${author.id}/follow`, { token: requester.token })
    }
    // Both sides of a block once followed the author: the block removed those follows.
    for (const member of [blocked, blocker]) await follow(t.app, member, author)
    expect((await api(t.app, 'POST', `/api/blocks/user/${blocked.id}`, { token: author.token })).statusCode).toBe(201)
    expect((await api(t.app, 'POST', `/api/blocks/user/${author.id}`, { token: blocker.token })).statusCode).toBe(201)
    // The author follows everyone in the picture who may be followed, so the following list has rows to hide.
    for (const member of [follower, stranger]) await follow(t.app, author, member)

    const people = { owner: author, follower, requester, stranger, blocked, blocker, muter }
    const written = {
      author,
      publicPost: await publish(t.app, author.token, `${kind} author: public #${openTag(kind)}`),
      followersPost: await publish(t.app, author.token, `${kind} author: followers #${quietTag(kind)}`, {
        visibility: 'followers',
      }),
      photoPost: await photoPost(author, `${kind} author: photo`),
      reply: await publish(t.app, author.token, `${kind} author: reply`, { replyTo: hostPost.id }),
    }
    expect((await api(t.app, 'POST', `/api/posts/${hostPost.id}/like`, { token: author.token })).statusCode).toBe(200)

    // The repost row: the author reposts the host's post and each viewer's post; across a block they cannot see it.
    const reposted = [sharedPost.id]
    expect((await api(t.app, 'POST', `/api/posts/${sharedPost.id}/repost`, { token: author.token })).statusCode).toBe(200)
    viewerPosts[kind] = {}
    for (const role of ROLES.filter((r) => r !== 'owner')) {
      const post = await publish(t.app, people[role].token, `${role} of the ${kind} author writes`)
      viewerPosts[kind][role] = post
      const res = await api(t.app, 'POST', `/api/posts/${post.id}/repost`, { token: author.token })
      const walled = role === 'blocked' || role === 'blocker'
      expect(res.statusCode, `repost of the ${role}'s post`).toBe(walled ? 404 : 200)
      if (!walled) reposted.push(post.id)
    }

    const list = await api(t.app, 'POST', '/api/lists', { token: curator.token, body: { name: `${kind} author` } })
    expect(list.statusCode).toBe(201)
    const listId = (list.json() as Schemas['ListResponse']).list.id
    const added = await api(t.app, 'POST', `/api/lists/${listId}/members`, { token: curator.token, body: { userId: author.id } })
    expect(added.statusCode).toBe(201)

    writings[kind] = { ...written, reposted, listId }
    viewers[kind] = people
  }
})

/** May the viewer see the account's posts at all, and its followers-only posts? */
function access(kind: Kind, role: Role): { walled: boolean; any: boolean; followersOnly: boolean } {
  const walled = role === 'blocked' || role === 'blocker'
  const insider = role === 'owner' || role === 'follower' || role === 'muter'
  return { walled, any: !walled && (insider || kind === 'public'), followersOnly: insider }
}

/** What the post page's `muted` says to this viewer about this author's posts. */
const mutedMark = (kind: Kind, role: Role) => (role === 'muter' ? `@${writings[kind].author.username}` : undefined)

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
      // Opened directly, a muted member's post shows behind the notice 'Muted: @username'.
      else expect((res.json() as Schemas['PostDetailResponse']).post.muted).toBe(mutedMark(kind, role))
    }
  })

  it("replies under a third member's post: the author's reply is listed exactly when it would open", async () => {
    const res = await call(who(), `/api/posts/${hostPost.id}`)
    expect(res.statusCode).toBe(200)
    const replies = (res.json() as Schemas['PostDetailResponse']).replies
    const reply = replies.find((p) => p.id === w().reply.id)
    expect(reply !== undefined).toBe(rule().any)
    if (reply) expect(reply.muted).toBe(mutedMark(kind, role))
  })

  it('home feed: the posts of an author the viewer follows (or is), nothing across a block, a request or a mute', async () => {
    const page = await feed(t.app, who().token)
    const ids = page.posts.map((p) => p.id)
    expect(page.posts.every((p) => p.muted === undefined)).toBe(true)
    const follows = role === 'owner' || role === 'follower'
    expect(ids.includes(w().publicPost.id)).toBe(follows)
    expect(ids.includes(w().followersPost.id)).toBe(follows)
    expect(ids.includes(w().photoPost.id)).toBe(follows)
    // A reply to a stranger (host) reaches only its author's feed.
    expect(ids.includes(w().reply.id)).toBe(role === 'owner')
    // The repost row: the host's post reaches the feed through the author's repost exactly as the author's posts do.
    const shared = page.posts.find((p) => p.id === sharedPost.id)
    expect(shared?.repostedBy?.id === w().author.id).toBe(follows)
    expect(page.posts.some((p) => p.repostedBy?.id === w().author.id && !w().reposted.includes(p.id))).toBe(false)
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
    // The posts tab holds the author's reposts too: exactly when their posts are shown (profiles ignore mutes).
    expect(await tab('posts')).toEqual(
      [
        ...visible([
          [w().publicPost, rule().any],
          [w().followersPost, rule().followersOnly],
          [w().photoPost, rule().any],
        ]),
        ...(rule().any ? w().reposted : []),
      ].sort(),
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
      // Followers: the approved follower and the muter (the blocks removed the other two follows).
      const all =
        direction === 'followers'
          ? [people.follower.username, people.muter.username]
          : [people.follower.username, people.stranger.username]
      expect(rows).toEqual(rule().any ? all.sort() : [])
    }
  })

  it("list timeline: someone else's public list holding the author shows what the viewer may see and not muted", async () => {
    const res = await call(who(), `/api/lists/${w().listId}/posts?limit=50`)
    expect(res.statusCode).toBe(200)
    const posts = (res.json() as Schemas['FeedResponse']).posts
    const listed = rule().any && role !== 'muter'
    const own = posts.filter((p) => p.repostedBy === null).map((p) => p.id)
    expect(own.sort()).toEqual(
      [
        [w().publicPost, listed],
        [w().followersPost, listed && rule().followersOnly],
        [w().photoPost, listed],
        // A reply to someone off the list is listed only to its author.
        [w().reply, role === 'owner'],
      ]
        .filter(([, shown]) => shown)
        .map(([p]) => (p as Schemas['Post']).id)
        .sort(),
    )
    // The repost row: the author's reposts reach exactly who may see the author (a private author's only its
    // followers; nobody across a block), and not a muter.
    const reposts = posts.filter((p) => p.repostedBy !== null)
    expect(reposts.every((p) => p.repostedBy?.id === w().author.id)).toBe(true)
    expect(reposts.map((p) => p.id).sort()).toEqual(listed ? [...w().reposted].sort() : [])
  })

  it('post search: from:author lists what the viewer may see and did not mute, never the reposts', async () => {
    const res = await call(who(), `/api/posts/search?q=${encodeURIComponent(`from:${w().author.username}`)}&limit=50`)
    expect(res.statusCode).toBe(200)
    const ids = (res.json() as Schemas['PostsPage']).posts.map((p) => p.id)
    const listed = rule().any && role !== 'muter'
    expect(ids.sort()).toEqual(
      [
        [w().publicPost, listed],
        [w().followersPost, listed && rule().followersOnly],
        [w().photoPost, listed],
        [w().reply, listed],
      ]
        .filter(([, shown]) => shown)
        .map(([p]) => (p as Schemas['Post']).id)
        .sort(),
    )
  })

  it('hashtag search: the same for every viewer, counting only public posts of public accounts', async () => {
    const search = async (tag: string) => {
      const res = await call(who(), `/api/hashtags/search?q=${tag}`)
      expect(res.statusCode).toBe(200)
      return (res.json() as Schemas['HashtagsPage']).hashtags
    }
    expect(await search(openTag(kind))).toEqual(kind === 'public' ? [{ hashtag: openTag(kind), count: 1 }] : [])
    expect(await search(quietTag(kind))).toEqual([])
  })

  it("notifications: the author's repost of the viewer's post is told exactly when the viewer may see the author", async () => {
    const res = await call(who(), '/api/notifications?limit=50')
    expect(res.statusCode).toBe(200)
    const page = res.json() as Schemas['NotificationsPage']
    const reposts = page.notifications.filter((n) => n.type === 'repost')
    const own = viewerPosts[kind][role]
    // Never one's own doing; never across a block or from a muted member; a private author only to followers.
    const told = own !== undefined && rule().any && role !== 'muter'
    expect(reposts.map((n) => [n.from.id, n.post?.id, n.othersCount])).toEqual(told ? [[w().author.id, own?.id, 0]] : [])
    expect(page.unreadCount).toBe(page.notifications.filter((n) => !n.read).length)
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
