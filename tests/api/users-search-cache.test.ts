import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { type Member, quickMember } from './content-helpers'
import { api, registerMember, useTestApp } from './harness'

// A searcher's first answer is kept in memory for a few seconds (users/search-results.ts, `firstPages`). Each test
// searches first, so the answer is cached, then changes something the answer shows through the API and searches
// again: the answer must show the change at once. Caches on even when the suite runs with WREN_TEST_CACHES=off.

const t = useTestApp({ caches: true })

type SearchResponse = Schemas['UserSearchResponse']

const tag = () => randomBytes(4).toString('hex')

async function search(who: Member, query: string): Promise<SearchResponse> {
  const res = await api(t.app, 'GET', `/api/users/search${query}`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

async function ok(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, who: Member, body?: unknown): Promise<void> {
  const res = await api(t.app, method, url, { token: who.token, ...(body === undefined ? {} : { body }) })
  expect(res.statusCode, res.body).toBeLessThan(300)
}

const rows = (page: SearchResponse) => page.users.map((u) => `${u.displayName}${u.isFollowing ? ' (following)' : ''}`)

describe("a searcher's cached first answer", () => {
  it('lists a member who registers after it was cached', async () => {
    const k = tag()
    const viewer = await quickMember(t.app, 'viewer')
    expect((await search(viewer, `?q=new${k}`)).users).toEqual([])
    await registerMember(t.app, { username: `new${k}`, email: `new${k}@example.test`, displayName: 'Newcomer' })
    expect(rows(await search(viewer, `?q=new${k}`))).toEqual(['Newcomer'])
  })

  it('finds a member by the name they just took, and no longer by the old one', async () => {
    const k = tag()
    const viewer = await quickMember(t.app, 'viewer')
    const mover = await quickMember(t.app, 'mover')
    await ok('PATCH', '/api/users/profile', mover, { displayName: `Old${k}` })
    expect(rows(await search(viewer, `?q=old${k}`))).toEqual([`Old${k}`])
    expect((await search(viewer, `?q=fresh${k}`)).users).toEqual([])
    await ok('PATCH', '/api/users/profile', mover, { displayName: `Fresh${k}` })
    expect((await search(viewer, `?q=old${k}`)).users).toEqual([])
    expect(rows(await search(viewer, `?q=fresh${k}`))).toEqual([`Fresh${k}`])
  })

  it("shows the viewer's follow at once and puts the followed member first", async () => {
    const k = tag()
    const viewer = await quickMember(t.app, 'viewer')
    const [first, second] = [await quickMember(t.app, 'a'), await quickMember(t.app, 'b')]
    await ok('PATCH', '/api/users/profile', first, { displayName: `Pal${k} One` })
    await ok('PATCH', '/api/users/profile', second, { displayName: `Pal${k} Two` })
    const fan = await quickMember(t.app, 'fan')
    await ok('POST', `/api/users/${first.id}/follow`, fan) // the most followed comes first
    expect(rows(await search(viewer, `?q=pal${k}`))).toEqual([`Pal${k} One`, `Pal${k} Two`])
    await ok('POST', `/api/users/${second.id}/follow`, viewer)
    expect(rows(await search(viewer, `?q=pal${k}`))).toEqual([`Pal${k} Two (following)`, `Pal${k} One`])
  })

  it('drops a member once either side blocks the other', async () => {
    const k = tag()
    const viewer = await quickMember(t.app, 'viewer')
    const other = await quickMember(t.app, 'other')
    await ok('PATCH', '/api/users/profile', other, { displayName: `Wall${k}` })
    expect(rows(await search(viewer, `?q=wall${k}`))).toEqual([`Wall${k}`])
    await ok('POST', `/api/blocks/user/${viewer.id}`, other)
    expect((await search(viewer, `?q=wall${k}`)).users).toEqual([])
  })

  it('stops suggesting a private member once the viewer has asked to follow them', async () => {
    const viewer = await quickMember(t.app, 'viewer')
    const [friend, shy] = [await quickMember(t.app, 'friend'), await quickMember(t.app, 'shy')]
    await ok('PATCH', '/api/users/profile', shy, { privateAccount: true })
    await ok('POST', `/api/users/${friend.id}/follow`, viewer)
    await ok('POST', `/api/users/${shy.id}/follow`, friend)
    await ok('POST', `/api/follow-requests/${friend.id}/approve`, shy)
    const suggested = async () => (await search(viewer, '')).suggestions.map((s) => s.id)
    const before = await suggested()
    expect(before).toContain(shy.id)
    const asked = await api(t.app, 'POST', `/api/users/${shy.id}/follow`, { token: viewer.token })
    expect(asked.json()).toMatchObject({ requested: true })
    expect(await suggested()).not.toContain(shy.id)
  })
})
