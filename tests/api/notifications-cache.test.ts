import { describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { type Member, publish, quickMember } from './content-helpers'
import { api, useTestApp } from './harness'

// The recipients' first pages are kept in memory (server/modules/notifications/first-pages.ts). Each test reads a
// page first, so it is cached, then changes something the page shows and reads again: the page must show the change.
// With the caches on even when the suite runs with WREN_TEST_CACHES=off; notifications.test.ts runs either way.

const t = useTestApp({ caches: true })

type Page = Schemas['NotificationsPage']

async function inbox(who: Member, query = ''): Promise<Page> {
  const res = await api(t.app, 'GET', `/api/notifications${query}`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

const said = (page: Page) => page.notifications.map((n) => `${n.type} ${n.from.displayName} ${n.read ? 'read' : 'unread'}`)

async function ok(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, who: Member, body?: unknown): Promise<void> {
  const res = await api(t.app, method, url, { token: who.token, ...(body === undefined ? {} : { body }) })
  expect(res.statusCode, res.body).toBeLessThan(300)
}

async function pair() {
  const ann = await quickMember(t.app, 'ann')
  const bob = await quickMember(t.app, 'bob')
  await ok('PATCH', '/api/users/profile', bob, { displayName: 'Bob' })
  return { ann, bob }
}

describe('a cached first page of notifications', () => {
  it('shows a like as soon as it is made and loses it when it is undone', async () => {
    const { ann, bob } = await pair()
    const post = await publish(t.app, ann.token, 'like this')
    expect(await inbox(ann)).toMatchObject({ notifications: [], unreadCount: 0 })
    await ok('POST', `/api/posts/${post.id}/like`, bob)
    expect(await inbox(ann)).toMatchObject({ unreadCount: 1 })
    expect(said(await inbox(ann))).toEqual(['like Bob unread'])
    await ok('POST', `/api/posts/${post.id}/like`, bob) // the like toggles: undone
    expect(await inbox(ann)).toMatchObject({ notifications: [], unreadCount: 0 })
  })

  it("shows the actor's new name after they rename themselves", async () => {
    const { ann, bob } = await pair()
    await ok('POST', `/api/users/${ann.id}/follow`, bob)
    expect(said(await inbox(ann))).toEqual(['follow Bob unread'])
    await ok('PATCH', '/api/users/profile', bob, { displayName: 'Robert' })
    expect(said(await inbox(ann))).toEqual(['follow Robert unread'])
  })

  it('marks items read in every filter, one and all', async () => {
    const { ann, bob } = await pair()
    const post = await publish(t.app, ann.token, 'hi')
    await publish(t.app, bob.token, `hey @${ann.username}`)
    await ok('POST', `/api/posts/${post.id}/like`, bob)
    const all = await inbox(ann)
    expect(said(all)).toEqual(['like Bob unread', 'mention Bob unread'])
    expect((await inbox(ann, '?filter=unread')).notifications).toHaveLength(2)
    expect((await inbox(ann, '?filter=mentions')).notifications).toHaveLength(1)
    await ok('PATCH', `/api/notifications/${all.notifications[0]!.id}/read`, ann)
    expect(said(await inbox(ann))).toEqual(['like Bob read', 'mention Bob unread'])
    expect(await inbox(ann, '?filter=unread')).toMatchObject({ unreadCount: 1 })
    await ok('PATCH', '/api/notifications/read-all', ann)
    expect(await inbox(ann, '?filter=unread')).toMatchObject({ notifications: [], unreadCount: 0 })
    expect(said(await inbox(ann, '?filter=mentions'))).toEqual(['mention Bob read'])
  })

  it('loses the item of a deleted post', async () => {
    const { ann, bob } = await pair()
    const mention = await publish(t.app, bob.token, `about @${ann.username}`)
    expect(said(await inbox(ann))).toEqual(['mention Bob unread'])
    await ok('DELETE', `/api/posts/${mention.id}`, bob)
    expect(await inbox(ann)).toMatchObject({ notifications: [], unreadCount: 0 })
  })

  it('loses what a member did once the recipient blocks or mutes them', async () => {
    const { ann, bob } = await pair()
    const cal = await quickMember(t.app, 'cal')
    await ok('POST', `/api/users/${ann.id}/follow`, bob)
    await ok('POST', `/api/users/${ann.id}/follow`, cal)
    expect(await inbox(ann)).toMatchObject({ unreadCount: 2 })
    await ok('POST', `/api/blocks/user/${bob.id}`, ann)
    expect((await inbox(ann)).notifications.map((n) => n.from.id)).toEqual([cal.id])
    await ok('POST', '/api/mutes/user', ann, { userId: cal.id })
    expect(await inbox(ann)).toMatchObject({ notifications: [], unreadCount: 0 })
  })

  it("hides a mention once its author's account turns private (the recipient does not follow them)", async () => {
    const { ann, bob } = await pair()
    await publish(t.app, bob.token, `public words for @${ann.username}`)
    expect(said(await inbox(ann))).toEqual(['mention Bob unread'])
    await ok('PATCH', '/api/users/profile', bob, { privateAccount: true })
    expect(await inbox(ann)).toMatchObject({ notifications: [], unreadCount: 0 })
  })

  it('keeps page sizes apart', async () => {
    const { ann, bob } = await pair()
    for (const text of ['one', 'two', 'three']) {
      const post = await publish(t.app, ann.token, text)
      await ok('POST', `/api/posts/${post.id}/like`, bob)
    }
    expect((await inbox(ann, '?limit=2')).notifications.map((n) => n.post?.content)).toEqual(['three', 'two'])
    expect((await inbox(ann)).notifications.map((n) => n.post?.content)).toEqual(['three', 'two', 'one'])
  })
})
