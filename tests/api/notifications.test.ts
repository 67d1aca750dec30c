import { describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { follow, type Member, publish, quickMember } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// Notifications: which happenings make an item, grouping, undoing, read state, preferences, and who never hears.

const t = useTestApp()

type Page = Schemas['NotificationsPage']
type Item = Schemas['Notification']

async function inbox(who: Member, query = ''): Promise<Page> {
  const res = await api(t.app, 'GET', `/api/notifications${query}`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

/** Each item as type, latest member, how many others, and the post's text: what the screen says. */
const said = (page: Page) =>
  page.notifications.map((n: Item) => [n.type, n.from.username, n.othersCount, n.post?.content ?? null])

const like = (who: Member, postId: string) => api(t.app, 'POST', `/api/posts/${postId}/like`, { token: who.token })
const repost = (who: Member, postId: string) => api(t.app, 'POST', `/api/posts/${postId}/repost`, { token: who.token })
const unfollow = (who: Member, target: Member) =>
  api(t.app, 'DELETE', `/api/users/${target.id}/follow`, { token: who.token })

describe('what makes an item', () => {
  it('likes, reposts, replies, mentions and follows, newest first, never one\'s own', async () => {
    const [ann, bob] = [await quickMember(t.app), await quickMember(t.app)]
    const post = await publish(t.app, ann.token, 'hello world')
    await like(ann, post.id) // her own: nothing
    await like(bob, post.id)
    await repost(bob, post.id)
    await publish(t.app, bob.token, 'a reply', { replyTo: post.id })
    await publish(t.app, bob.token, `hey @${ann.username}`)
    await follow(t.app, bob, ann)
    expect(said(await inbox(ann))).toEqual([
      ['follow', bob.username, 0, null],
      ['mention', bob.username, 0, `hey @${ann.username}`],
      ['reply', bob.username, 0, 'a reply'],
      ['repost', bob.username, 0, 'hello world'],
      ['like', bob.username, 0, 'hello world'],
    ])
    expect((await inbox(ann)).unreadCount).toBe(5)
    expect((await inbox(bob)).notifications).toEqual([])
  })

  it('a reply that mentions the parent\'s author makes one reply item, not a mention too', async () => {
    const [ann, bob] = [await quickMember(t.app), await quickMember(t.app)]
    const post = await publish(t.app, ann.token, 'parent')
    await publish(t.app, bob.token, `@${ann.username} answer`, { replyTo: post.id })
    expect(said(await inbox(ann))).toEqual([['reply', bob.username, 0, `@${ann.username} answer`]])
  })
})

describe('grouping', () => {
  it('twenty likes on one post are one item: the latest member and 19 others, unread again on a new like', async () => {
    const ann = await quickMember(t.app)
    const post = await publish(t.app, ann.token, 'popular')
    const fans = await Promise.all(Array.from({ length: 20 }, () => quickMember(t.app)))
    // At the same moment: the count must still be exact.
    await Promise.all(fans.map((f) => like(f, post.id)))
    const page = await inbox(ann)
    expect(page.notifications).toHaveLength(1)
    expect(page.notifications[0]).toMatchObject({ type: 'like', othersCount: 19, read: false })
    expect(page.unreadCount).toBe(1)

    await api(t.app, 'PATCH', '/api/notifications/read-all', { token: ann.token })
    expect((await inbox(ann)).unreadCount).toBe(0)
    const late = await quickMember(t.app)
    await like(late, post.id)
    const again = await inbox(ann)
    expect(again.notifications[0]).toMatchObject({ type: 'like', othersCount: 20, read: false, from: { id: late.id } })
  })
})

describe('undoing', () => {
  it('an unlike, an un-repost and an unfollow take the item away (or the member out of it)', async () => {
    const [ann, bob, cat] = [await quickMember(t.app), await quickMember(t.app), await quickMember(t.app)]
    const post = await publish(t.app, ann.token, 'undo me')
    await like(bob, post.id)
    await like(cat, post.id)
    await repost(bob, post.id)
    await follow(t.app, bob, ann)
    await like(cat, post.id) // unlike: bob is left
    expect(said(await inbox(ann))).toEqual([
      ['follow', bob.username, 0, null],
      ['repost', bob.username, 0, 'undo me'],
      ['like', bob.username, 0, 'undo me'],
    ])
    await like(bob, post.id)
    await repost(bob, post.id)
    await unfollow(bob, ann)
    expect((await inbox(ann)).notifications).toEqual([])
  })

  it('deleting the post deletes its items', async () => {
    const [ann, bob] = [await quickMember(t.app), await quickMember(t.app)]
    const post = await publish(t.app, ann.token, 'short-lived')
    const reply = await publish(t.app, bob.token, 'reply to go', { replyTo: post.id })
    await like(bob, post.id)
    expect((await inbox(ann)).notifications).toHaveLength(2)
    await api(t.app, 'DELETE', `/api/posts/${reply.id}`, { token: bob.token })
    expect(said(await inbox(ann))).toEqual([['like', bob.username, 0, 'short-lived']])
    await api(t.app, 'DELETE', `/api/posts/${post.id}`, { token: ann.token })
    expect((await inbox(ann)).notifications).toEqual([])
  })
})

describe('who is never heard', () => {
  it('nothing from a blocked member either way, and a block takes their earlier doings out', async () => {
    const [ann, bob, cat] = [await quickMember(t.app), await quickMember(t.app), await quickMember(t.app)]
    const post = await publish(t.app, ann.token, 'walls')
    await like(bob, post.id)
    await like(cat, post.id)
    await api(t.app, 'POST', `/api/blocks/user/${bob.id}`, { token: ann.token })
    expect(said(await inbox(ann))).toEqual([['like', cat.username, 0, 'walls']])
    // Bob cannot reach her post any more; a mention by him is not delivered either.
    await publish(t.app, bob.token, `@${ann.username} hello?`)
    expect((await inbox(ann)).notifications).toHaveLength(1)
  })

  it('nothing from a muted member, old or new', async () => {
    const [ann, bob] = [await quickMember(t.app), await quickMember(t.app)]
    await follow(t.app, bob, ann)
    await api(t.app, 'POST', '/api/mutes/user', { token: ann.token, body: { userId: bob.id } })
    expect((await inbox(ann)).notifications).toEqual([])
    const post = await publish(t.app, ann.token, 'quiet')
    await like(bob, post.id)
    expect((await inbox(ann)).notifications).toEqual([])
  })

  it('no mention when allowMentions forbids it', async () => {
    const [ann, bob] = [await quickMember(t.app), await quickMember(t.app)]
    await api(t.app, 'PATCH', '/api/users/settings/privacy', { token: ann.token, body: { allowMentions: 'none' } })
    await publish(t.app, bob.token, `@${ann.username} hi`)
    expect((await inbox(ann)).notifications).toEqual([])
  })

  it('nothing on a post the member can no longer see', async () => {
    const [ann, bob] = [await quickMember(t.app), await quickMember(t.app)]
    await follow(t.app, ann, bob)
    await publish(t.app, bob.token, `for followers, @${ann.username}`, { visibility: 'followers' })
    expect((await inbox(ann)).notifications.map((n) => n.type)).toEqual(['mention'])
    await unfollow(ann, bob)
    expect((await inbox(ann)).notifications).toEqual([])
    expect((await inbox(ann)).unreadCount).toBe(0)
  })
})

describe('follow requests', () => {
  it('a request notifies the private member; approving tells the requester; declining or cancelling leaves nothing', async () => {
    const [locked, bob, cat] = [await quickMember(t.app), await quickMember(t.app), await quickMember(t.app)]
    await api(t.app, 'PATCH', '/api/users/profile', { token: locked.token, body: { privateAccount: true } })
    await follow(t.app, bob, locked)
    await follow(t.app, cat, locked)
    expect(said(await inbox(locked)).map(([type, who]) => [type, who])).toEqual([
      ['follow_request', cat.username],
      ['follow_request', bob.username],
    ])
    await api(t.app, 'POST', `/api/follow-requests/${bob.id}/approve`, { token: locked.token })
    expect(said(await inbox(bob))).toEqual([['follow_accepted', locked.username, 0, null]])
    await unfollow(cat, locked) // cancels the request
    expect((await inbox(locked)).notifications).toEqual([])
  })
})

describe('reading', () => {
  it('filters mentions and unread, marks one read (others\' ids 404) and all read', async () => {
    const [ann, bob, eve] = [await quickMember(t.app), await quickMember(t.app), await quickMember(t.app)]
    await publish(t.app, bob.token, `@${ann.username} one`)
    await follow(t.app, bob, ann)
    const all = await inbox(ann)
    expect(all.unreadCount).toBe(2)
    expect(said(await inbox(ann, '?filter=mentions')).map(([type]) => type)).toEqual(['mention'])
    // A filter with nothing to show still says how many are unread (the page and the count are read together).
    expect(await inbox(eve, '?filter=mentions')).toMatchObject({ notifications: [], unreadCount: 0 })
    await follow(t.app, eve, bob)
    expect(await inbox(bob, '?filter=mentions')).toMatchObject({ notifications: [], unreadCount: 1 })
    const [first] = all.notifications as [Item]
    const theirs = await api(t.app, 'PATCH', `/api/notifications/${first.id}/read`, { token: eve.token })
    expect({ status: theirs.statusCode, error: theirs.json<ErrorBody>().error }).toEqual({
      status: 404,
      error: 'Notification not found',
    })
    expect((await api(t.app, 'PATCH', '/api/notifications/nope/read', { token: ann.token })).statusCode).toBe(404)
    expect((await api(t.app, 'PATCH', `/api/notifications/${first.id}/read`, { token: ann.token })).statusCode).toBe(204)
    const after = await inbox(ann, '?filter=unread')
    expect(after.unreadCount).toBe(1)
    expect(after.notifications.map((n) => n.type)).toEqual(['mention'])
    await api(t.app, 'PATCH', '/api/notifications/read-all', { token: ann.token })
    expect(await inbox(ann, '?filter=unread')).toMatchObject({ notifications: [], unreadCount: 0 })
    const bad = await api(t.app, 'GET', '/api/notifications?filter=everything', { token: ann.token })
    expect(bad.statusCode).toBe(400)
  })

  it('pages with a cursor', async () => {
    const ann = await quickMember(t.app)
    const fans = await Promise.all(Array.from({ length: 5 }, () => quickMember(t.app)))
    for (const f of fans) await follow(t.app, f, ann)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: Page = await inbox(ann, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...page.notifications.map((n) => n.from.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toEqual(fans.map((f) => f.id).reverse())
  })
})

  it('counts unread up to 100: 102 mentions say 100 (the badge shows 99+), and the exact count comes back below it', async () => {
    const [ann, bob] = [await quickMember(t.app), await quickMember(t.app)]
    for (let i = 0; i < 102; i++) await publish(t.app, bob.token, `@${ann.username} number ${i}`)
    const page = await inbox(ann, '?limit=100')
    expect(page.unreadCount).toBe(100)
    // Read the newest 100 one by one: 2 left, counted exactly again.
    const reads = page.notifications.map((n) =>
      api(t.app, 'PATCH', `/api/notifications/${n.id}/read`, { token: ann.token }))
    expect((await Promise.all(reads)).map((r) => r.statusCode)).toEqual(Array(100).fill(204))
    expect((await inbox(ann)).unreadCount).toBe(2)
  })

describe('preferences', () => {
  it('a kind turned off is never created; the others still are', async () => {
    const [ann, bob] = [await quickMember(t.app), await quickMember(t.app)]
    const start = await api(t.app, 'GET', '/api/notifications/preferences', { token: ann.token })
    expect(start.json()).toEqual({ like: true, repost: true, reply: true, mention: true, follow: true, quote: true })
    const changed = await api(t.app, 'PATCH', '/api/notifications/preferences', {
      token: ann.token,
      body: { like: false, follow: false },
    })
    expect(changed.json()).toEqual({ like: false, repost: true, reply: true, mention: true, follow: false, quote: true })
    const post = await publish(t.app, ann.token, 'prefs')
    await like(bob, post.id)
    await follow(t.app, bob, ann)
    await repost(bob, post.id)
    expect(said(await inbox(ann)).map(([type]) => type)).toEqual(['repost'])
    const empty = await api(t.app, 'PATCH', '/api/notifications/preferences', { token: ann.token, body: {} })
    expect(empty.statusCode).toBe(400)
  })
})
