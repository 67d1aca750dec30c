import { describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { type Member, feed, follow, publish, quickMember } from './content-helpers'
import { api, useTestApp } from './harness'

// A repost shows its reposter, so it reaches only viewers who may see that member (docs/product.md, "Who sees
// what"): never across a block either way, and a private account's reposts only to its approved followers. Each
// surface that shows a reposter is read before and after the relation changes, so a cached first page (on by
// default; off with WREN_TEST_CACHES=off) must follow the change too.

const t = useTestApp()

type FeedPost = Schemas['FeedPost']

const ok = (res: { statusCode: number; body: string }, status = 200) => expect(res.statusCode, res.body).toBe(status)

async function setPrivate(who: Member) {
  ok(await api(t.app, 'PATCH', '/api/users/profile', { token: who.token, body: { privateAccount: true } }))
}

/** `fan` follows the private `owner`, approved. */
async function approvedFollow(fan: Member, owner: Member) {
  ok(await api(t.app, 'POST', `/api/users/${owner.id}/follow`, { token: fan.token }))
  ok(await api(t.app, 'POST', `/api/follow-requests/${fan.id}/approve`, { token: owner.token }))
}

const unfollow = async (fan: Member, other: Member) =>
  ok(await api(t.app, 'DELETE', `/api/users/${other.id}/follow`, { token: fan.token }))
const repost = async (who: Member, postId: string) =>
  ok(await api(t.app, 'POST', `/api/posts/${postId}/repost`, { token: who.token }))
const block = async (who: Member, other: Member) =>
  ok(await api(t.app, 'POST', `/api/blocks/user/${other.id}`, { token: who.token }), 201)

async function newList(owner: Member, members: Member[]): Promise<string> {
  const res = await api(t.app, 'POST', '/api/lists', { token: owner.token, body: { name: 'Reading' } })
  ok(res, 201)
  const id = (res.json() as Schemas['ListResponse']).list.id
  for (const m of members) ok(await api(t.app, 'POST', `/api/lists/${id}/members`, { token: owner.token, body: { userId: m.id } }), 201)
  return id
}

async function listPosts(who: Member, listId: string): Promise<FeedPost[]> {
  const res = await api(t.app, 'GET', `/api/lists/${listId}/posts`, { token: who.token })
  ok(res)
  return (res.json() as Schemas['FeedResponse']).posts
}

/** The reposters a list of feed items names, as `post id <- username`. */
const repostsIn = (posts: FeedPost[]) =>
  posts.flatMap((p) => (p.repostedBy ? [`${p.id} <- ${p.repostedBy.username}`] : []))

async function notifications(who: Member): Promise<Schemas['NotificationsPage']> {
  const res = await api(t.app, 'GET', '/api/notifications', { token: who.token })
  ok(res)
  return res.json() as Schemas['NotificationsPage']
}

/** The badge counts exactly the unread items the list shows. */
async function expectBadgeMatchesList(who: Member) {
  const page = await notifications(who)
  expect(page.unreadCount).toBe(page.notifications.filter((n) => !n.read).length)
}

/** The viewer's repost items: who is shown, how many others, on which post. */
async function repostItems(who: Member) {
  return (await notifications(who)).notifications
    .filter((n) => n.type === 'repost')
    .map((n) => ({ from: n.from.username, othersCount: n.othersCount, post: n.post?.id }))
}

describe('list timelines', () => {
  it("leave out the reposts of a private member the reader does not follow, and follow the reader's follows", async () => {
    const [reader, secret, source] = [await quickMember(t.app, 'rdr'), await quickMember(t.app, 'sec'), await quickMember(t.app, 'src')]
    await setPrivate(secret)
    const shared = await publish(t.app, source.token, 'worth sharing')
    await repost(secret, shared.id)
    const list = await newList(reader, [secret])

    expect(repostsIn(await listPosts(reader, list))).toEqual([])

    await approvedFollow(reader, secret)
    expect(repostsIn(await listPosts(reader, list))).toEqual([`${shared.id} <- ${secret.username}`])

    // The page just read is cached; the unfollow must take the repost out of it.
    await unfollow(reader, secret)
    expect(repostsIn(await listPosts(reader, list))).toEqual([])
  })

  it("leave out the reposts of a member who blocked the reader, on someone else's public list", async () => {
    const [curator, reader, member, source] = [
      await quickMember(t.app, 'cur'),
      await quickMember(t.app, 'rdr'),
      await quickMember(t.app, 'mbr'),
      await quickMember(t.app, 'src'),
    ]
    const shared = await publish(t.app, source.token, 'a public thought')
    await repost(member, shared.id)
    const list = await newList(curator, [member])
    expect(repostsIn(await listPosts(reader, list))).toEqual([`${shared.id} <- ${member.username}`])

    await block(member, reader)
    expect(repostsIn(await listPosts(reader, list))).toEqual([])
    // The curator still sees it: the block is between the member and the reader only.
    expect(repostsIn(await listPosts(curator, list))).toEqual([`${shared.id} <- ${member.username}`])
  })

  it('bring a post through the next visible reposter when the earliest one is hidden', async () => {
    const [reader, secret, open, source] = [
      await quickMember(t.app, 'rdr'),
      await quickMember(t.app, 'sec'),
      await quickMember(t.app, 'opn'),
      await quickMember(t.app, 'src'),
    ]
    await setPrivate(secret)
    const shared = await publish(t.app, source.token, 'shared twice')
    await repost(secret, shared.id)
    await repost(open, shared.id)
    const list = await newList(reader, [secret, open])
    expect(repostsIn(await listPosts(reader, list))).toEqual([`${shared.id} <- ${open.username}`])
  })
})

describe('home feed', () => {
  it('drops a private reposter once the viewer unfollows them, and a reposter who blocks the viewer', async () => {
    const [viewer, secret, friend, source] = [
      await quickMember(t.app, 'vwr'),
      await quickMember(t.app, 'sec'),
      await quickMember(t.app, 'frd'),
      await quickMember(t.app, 'src'),
    ]
    await setPrivate(secret)
    await approvedFollow(viewer, secret)
    await follow(t.app, viewer, friend)
    const [one, two] = [await publish(t.app, source.token, 'one'), await publish(t.app, source.token, 'two')]
    await repost(secret, one.id)
    await repost(friend, two.id)
    expect(repostsIn((await feed(t.app, viewer.token)).posts).sort()).toEqual(
      [`${one.id} <- ${secret.username}`, `${two.id} <- ${friend.username}`].sort(),
    )
    await unfollow(viewer, secret)
    await block(friend, viewer)
    expect(repostsIn((await feed(t.app, viewer.token)).posts)).toEqual([])
  })
})

describe('profiles', () => {
  it("list a private member's reposts to approved followers only", async () => {
    const [viewer, secret, source] = [await quickMember(t.app, 'vwr'), await quickMember(t.app, 'sec'), await quickMember(t.app, 'src')]
    await setPrivate(secret)
    const shared = await publish(t.app, source.token, 'profile share')
    await repost(secret, shared.id)
    const tab = async () => {
      const res = await api(t.app, 'GET', `/api/users/${secret.username}?tab=posts`, { token: viewer.token })
      ok(res)
      return repostsIn((res.json() as Schemas['UserProfileResponse']).posts)
    }
    expect(await tab()).toEqual([])
    await approvedFollow(viewer, secret)
    expect(await tab()).toEqual([`${shared.id} <- ${secret.username}`])
    await unfollow(viewer, secret)
    expect(await tab()).toEqual([])
  })
})

describe('repost notifications', () => {
  it("never name a private reposter the author does not follow, and count only reposters the author may see", async () => {
    const [author, secret, open] = [await quickMember(t.app, 'aut'), await quickMember(t.app, 'sec'), await quickMember(t.app, 'opn')]
    await setPrivate(secret)
    const post = await publish(t.app, author.token, 'please share')

    await repost(secret, post.id)
    expect(await repostItems(author)).toEqual([])
    expect((await notifications(author)).unreadCount).toBe(0)

    await repost(open, post.id)
    expect(await repostItems(author)).toEqual([{ from: open.username, othersCount: 0, post: post.id }])
    await expectBadgeMatchesList(author)
  })

  it('hide a private reposter once the author unfollows them, and one who blocked the author', async () => {
    const [author, secret, open] = [await quickMember(t.app, 'aut'), await quickMember(t.app, 'sec'), await quickMember(t.app, 'opn')]
    await setPrivate(secret)
    await approvedFollow(author, secret)
    const [first, second] = [await publish(t.app, author.token, 'first'), await publish(t.app, author.token, 'second')]
    await repost(open, first.id)
    await repost(secret, first.id)
    await repost(secret, second.id)
    expect(await repostItems(author)).toEqual([
      { from: secret.username, othersCount: 0, post: second.id },
      { from: secret.username, othersCount: 1, post: first.id },
    ])

    // The page just read is cached; the unfollow must change it.
    await unfollow(author, secret)
    expect(await repostItems(author)).toEqual([{ from: open.username, othersCount: 0, post: first.id }])

    await block(open, author)
    expect(await repostItems(author)).toEqual([])
    await expectBadgeMatchesList(author)
  })
})
