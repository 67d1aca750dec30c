import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { users } from '../../server/db/schema'
import type { Schemas } from '../../server/http/handler-types'
import { publish } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// GET /users/search: the New Message modal's 'To:' search and the Search screen's Users tab and Who to Follow.

const t = useTestApp()

type SearchResponse = Schemas['UserSearchResponse']

/** A tag no other test's members carry, so a search finds only this test's members. */
const tag = () => randomBytes(4).toString('hex')

async function member(username: string, displayName = `Member ${username}`, followersCount = 0) {
  const [row] = await t.app.services.db
    .insert(users)
    .values({ username, email: `${username.toLowerCase()}@example.test`, displayName, passwordHash: 'x', followersCount })
    .returning({ id: users.id })
  if (!row) throw new Error('insert returned no row')
  return { id: row.id, username, token: await t.app.services.sessions.create(row.id, { userAgent: 'tests' }) }
}

async function search(token: string, query: string): Promise<SearchResponse> {
  const res = await api(t.app, 'GET', `/api/users/search${query}`, { token })
  expect(res.statusCode).toBe(200)
  return res.json()
}

const names = (page: SearchResponse) => page.users.map((u) => u.username)

describe('searching members', () => {
  it('matches a username prefix or a display name anywhere, exact > prefix > contains, then followed, then most followed', async () => {
    const k = tag()
    const viewer = await member(`v_${k}`)
    const exact = await member(`ann${k}`, 'Someone')
    const followed = await member(`ann${k}_b`, 'Another')
    const popular = await member(`zed_${k}`, `Ann${k} Doe`, 50)
    const lessPopular = await member(`ann${k}_c`, 'Third', 10)
    const inside = await member(`y_${k}`, `Mary Ann${k}`, 1_000)
    await member(`x_ann${k}`, 'Nobody here') // the username only contains the query: not a match
    await api(t.app, 'POST', `/api/users/${followed.id}/follow`, { token: viewer.token })

    const page = await search(viewer.token, `?q=${encodeURIComponent(`@ANN${k}`)}`)
    expect(names(page)).toEqual([exact.username, followed.username, popular.username, lessPopular.username, inside.username])
    expect(page.users.find((u) => u.id === followed.id)).toMatchObject({ isFollowing: true, displayName: 'Another', bio: '' })
    expect(page.users.find((u) => u.id === exact.id)?.isFollowing).toBe(false)
    // Only the contract's fields: never an email or a password hash.
    expect(Object.keys(page.users[0] ?? {}).sort()).toEqual(
      ['avatar', 'bio', 'displayName', 'id', 'isFollowing', 'username', 'verified'].sort(),
    )
  })

  it('pages with a cursor, every member once, in the order of one long page', async () => {
    const k = tag()
    const viewer = await member(`pv_${k}`)
    for (let i = 0; i < 7; i += 1) await member(`pg${k}_${i}`, `Paged ${i}`, i % 3)
    const whole = names(await search(viewer.token, `?q=pg${k}&limit=50`))
    expect(whole).toHaveLength(7)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const query: string = `?q=pg${k}&limit=3${cursor ? `&cursor=${cursor}` : ''}`
      const page = await search(viewer.token, query)
      expect(page.users.length).toBeLessThanOrEqual(3)
      seen.push(...names(page))
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toEqual(whole)
  })

  it('takes LIKE wildcards literally', async () => {
    const k = tag()
    const viewer = await member(`wv_${k}`)
    const percent = await member(`w_${k}_a`, `Fifty 100%${k}`)
    await member(`w_${k}_b`, `Fifty 1000${k}`)
    expect(names(await search(viewer.token, `?q=${encodeURIComponent(`100%${k}`)}`))).toEqual([percent.username])
    expect(names(await search(viewer.token, `?q=${encodeURIComponent(`w_${k}_`)}`))).toHaveLength(2)
    expect(names(await search(viewer.token, `?q=${encodeURIComponent(`w%${k}`)}`))).toEqual([])
  })

  it('never lists a member across a block, either way', async () => {
    const k = tag()
    const viewer = await member(`bv_${k}`)
    const blocked = await member(`bb${k}_1`)
    const blocker = await member(`bb${k}_2`)
    const free = await member(`bb${k}_3`)
    await api(t.app, 'POST', `/api/blocks/user/${blocked.id}`, { token: viewer.token })
    await api(t.app, 'POST', `/api/blocks/user/${viewer.id}`, { token: blocker.token })
    expect(names(await search(viewer.token, `?q=bb${k}`))).toEqual([free.username])
    expect(names(await search(blocked.token, `?q=bv_${k}`))).toEqual([])
    expect(names(await search(blocker.token, `?q=bv_${k}`))).toEqual([])
  })

  it('refuses a query shorter than 2 characters (also after the @) and one over 100', async () => {
    const viewer = await member(`sv_${tag()}`)
    for (const q of ['a', '@a', '  @ ']) {
      const res = await api(t.app, 'GET', `/api/users/search?q=${encodeURIComponent(q)}`, { token: viewer.token })
      expect(res.statusCode).toBe(400)
      expect(res.json<ErrorBody>().error).toBe('q must be at least 2 characters')
    }
    const long = await api(t.app, 'GET', `/api/users/search?q=${'x'.repeat(101)}`, { token: viewer.token })
    expect(long.statusCode).toBe(400)
    const anonymous = await api(t.app, 'GET', '/api/users/search?q=ann')
    expect(anonymous.statusCode).toBe(401)
  })
})

describe('who to follow', () => {
  it('suggests at most 5 members the viewer does not follow, ask, mute or block, the most followed first', async () => {
    const k = tag()
    const viewer = await member(`fv_${k}`)
    // Far more followed than anyone else the other tests make, so they lead the list.
    const top = []
    for (let i = 0; i < 9; i += 1) top.push(await member(`top${k}_${i}`, `Top ${i}`, 1_000_000 - i))
    const [followed, muted, blocked, blocker, ...rest] = top as [typeof viewer, typeof viewer, typeof viewer, typeof viewer, ...(typeof viewer)[]]
    await api(t.app, 'POST', `/api/users/${followed.id}/follow`, { token: viewer.token })
    await api(t.app, 'POST', '/api/mutes/user', { token: viewer.token, body: { userId: muted.id } })
    await api(t.app, 'POST', `/api/blocks/user/${blocked.id}`, { token: viewer.token })
    await api(t.app, 'POST', `/api/blocks/user/${viewer.id}`, { token: blocker.token })

    const page = await search(viewer.token, '')
    expect(page.users).toEqual([])
    expect(page.nextCursor).toBeNull()
    expect(page.suggestions.map((u) => u.username)).toEqual(rest.map((m) => m.username))
    expect(page.suggestions.every((u) => !u.isFollowing)).toBe(true)
    // The first page of a search carries them too; later pages do not repeat them.
    expect((await search(viewer.token, `?q=top${k}`)).suggestions).toHaveLength(5)
    expect((await search(viewer.token, `?q=top${k}&page=2&limit=2`)).suggestions).toEqual([])
  })
})

describe('who to follow, friends of friends', () => {
  it('puts members followed by more of the people the viewer follows first, ahead of the popular ones', async () => {
    const k = tag()
    const viewer = await member(`ff_${k}`)
    const [ann, bea] = [await member(`ffa_${k}`), await member(`ffb_${k}`)]
    const [both, one] = [await member(`ffboth_${k}`), await member(`ffone_${k}`)]
    const popular = await member(`ffpop_${k}`, 'Popular', 2_000_000)
    for (const friend of [ann, bea]) await api(t.app, 'POST', `/api/users/${friend.id}/follow`, { token: viewer.token })
    for (const friend of [ann, bea]) await api(t.app, 'POST', `/api/users/${both.id}/follow`, { token: friend.token })
    await api(t.app, 'POST', `/api/users/${one.id}/follow`, { token: ann.token })
    // The viewer's own follower is followed by a friend too: still suggested (they do not follow them yet).
    await api(t.app, 'POST', `/api/users/${viewer.id}/follow`, { token: ann.token })

    const suggested = (await search(viewer.token, '')).suggestions.map((u) => u.username)
    expect(suggested.slice(0, 3)).toEqual([both.username, one.username, popular.username])
    expect(suggested).not.toContain(viewer.username)
    expect(suggested).not.toContain(ann.username)
  })

  it('prefers a member who posted lately over a more followed one who has not', async () => {
    const k = tag()
    const viewer = await member(`fa_${k}`)
    const quiet = await member(`faq_${k}`, 'Quiet', 3_000_000)
    const active = await member(`faa_${k}`, 'Active', 2_999_999)
    await publish(t.app, active.token, 'hello')
    const suggested = (await search(viewer.token, '')).suggestions.map((u) => u.username)
    expect(suggested.indexOf(active.username)).toBeLessThan(suggested.indexOf(quiet.username))
    expect(suggested.indexOf(active.username)).toBeGreaterThanOrEqual(0)
  })
})

describe('a member search or suggestions asked again soon after', () => {
  it('finds a member who joined or renamed since, drops one renamed away, and reorders at once on a follow or block', async () => {
    const k = tag()
    const viewer = await member(`rv_${k}`)
    const ann = await member(`ren${k}_a`, 'Ann', 5)
    const bob = await member(`ren${k}_b`, 'Bob', 9)
    expect(names(await search(viewer.token, `?q=ren${k}`))).toEqual([bob.username, ann.username])

    const cat = await member(`ren${k}_c`, 'Cat', 1)
    const dan = await member(`d_${k}`, 'Dan')
    await api(t.app, 'PATCH', '/api/users/profile', { token: dan.token, body: { displayName: `Dan ren${k}` } })
    await api(t.app, 'PATCH', '/api/users/profile', { token: bob.token, body: { displayName: 'Robert' } })
    // Bob's username still starts with the query; Dan now contains it; Cat joined.
    expect(names(await search(viewer.token, `?q=ren${k}`))).toEqual([bob.username, ann.username, cat.username, dan.username])
    expect(names(await search(viewer.token, `?q=${encodeURIComponent(`Dan ren${k}`)}`))).toEqual([dan.username])

    await api(t.app, 'POST', `/api/users/${cat.id}/follow`, { token: viewer.token })
    await api(t.app, 'POST', `/api/blocks/user/${viewer.id}`, { token: bob.token })
    expect(names(await search(viewer.token, `?q=ren${k}`))).toEqual([cat.username, ann.username, dan.username])
  })

  it('no longer suggests a member the viewer has followed, muted or blocked since', async () => {
    const k = tag()
    const viewer = await member(`sv_${k}`)
    const first = await search(viewer.token, '')
    const [a, b, c] = first.suggestions
    if (!a || !b || !c) throw new Error('expected three suggestions at least')
    await api(t.app, 'POST', `/api/users/${a.id}/follow`, { token: viewer.token })
    await api(t.app, 'POST', '/api/mutes/user', { token: viewer.token, body: { userId: b.id } })
    await api(t.app, 'POST', `/api/blocks/user/${c.id}`, { token: viewer.token })
    const ids = (await search(viewer.token, '')).suggestions.map((s) => s.id)
    expect(ids).not.toContain(a.id)
    expect(ids).not.toContain(b.id)
    expect(ids).not.toContain(c.id)
  })
})
