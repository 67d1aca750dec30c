import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { feedKeys } from '../../server/modules/posts/feed-queries'
import { LIMITS } from '../../src/api/contract/limits'
import { feed, follow, type Member, publish, quickMember, quickMembers } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// docs/product.md, "Lists". Runs with the caches on and, in `npm test`'s second pass, off (WREN_TEST_CACHES=off).
const t = useTestApp()

type List = Schemas['List']
type Res = { statusCode: number; body: string; json: () => unknown }
const errorOf = (res: Res) => (res.json() as ErrorBody).error
const expectStatus = (res: Res, status: number) => expect(res.statusCode, res.body).toBe(status)

const createList = (who: Member, body: unknown) => api(t.app, 'POST', '/api/lists', { token: who.token, body })
const newList = async (who: Member, name: string, extra: Record<string, unknown> = {}) => {
  const res = await createList(who, { name, ...extra })
  expectStatus(res, 201)
  return (res.json() as Schemas['ListResponse']).list
}
const getList = (who: Member, id: string, query = '') => api(t.app, 'GET', `/api/lists/${id}${query}`, { token: who.token })
const editList = (who: Member, id: string, body: unknown) => api(t.app, 'PATCH', `/api/lists/${id}`, { token: who.token, body })
const deleteList = (who: Member, id: string) => api(t.app, 'DELETE', `/api/lists/${id}`, { token: who.token })
const addMember = (who: Member, id: string, userId: unknown) =>
  api(t.app, 'POST', `/api/lists/${id}/members`, { token: who.token, body: { userId } })
const removeMember = (who: Member, id: string, userId: string) =>
  api(t.app, 'DELETE', `/api/lists/${id}/members/${userId}`, { token: who.token })
const subscribe = (who: Member, id: string) => api(t.app, 'POST', `/api/lists/${id}/subscribe`, { token: who.token })
const unsubscribe = (who: Member, id: string) => api(t.app, 'DELETE', `/api/lists/${id}/subscribe`, { token: who.token })
const listsOf = async (who: Member, query = '') => {
  const res = await api(t.app, 'GET', `/api/lists${query}`, { token: who.token })
  expectStatus(res, 200)
  return res.json() as Schemas['ListsPage']
}
const timelineRes = (who: Member, id: string, query = '') => api(t.app, 'GET', `/api/lists/${id}/posts${query}`, { token: who.token })
const timeline = async (who: Member, id: string, query = '') => {
  const res = await timelineRes(who, id, query)
  expectStatus(res, 200)
  return res.json() as Schemas['FeedResponse']
}
const contents = async (who: Member, id: string, query = '?limit=100') => (await timeline(who, id, query)).posts.map((p) => p.content)
const add = async (who: Member, id: string, member: Member) => {
  const res = await addMember(who, id, member.id)
  expectStatus(res, 201)
  return (res.json() as Schemas['ListResponse']).list
}
const block = (who: Member, other: Member) => api(t.app, 'POST', `/api/blocks/user/${other.id}`, { token: who.token })
const unblock = (who: Member, other: Member) => api(t.app, 'DELETE', `/api/blocks/user/${other.id}`, { token: who.token })
/** Four new members, to destructure (as many as a test needs). */
async function team(prefix: string): Promise<[Member, Member, Member, Member]> {
  const made = await quickMembers(t.app, 4, prefix)
  const [a, b, c, d] = made
  if (!a || !b || !c || !d) throw new Error('quickMembers made too few members')
  return [a, b, c, d]
}
const memberCountOf = async (who: Member, id: string) => ((await getList(who, id)).json() as Schemas['ListDetailResponse']).list.memberCount

describe('creating, reading, editing and deleting a list', () => {
  let ann: Member
  let bob: Member
  beforeAll(async () => {
    ;[ann, bob] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob')]
  })

  it('creates a list trimmed, with its owner, no members and no subscribers', async () => {
    const list = await newList(ann, '  Friends  ', { description: '  People I know  ' })
    expect(list).toMatchObject({
      name: 'Friends',
      description: 'People I know',
      isPrivate: false,
      memberCount: 0,
      subscriberCount: 0,
      subscribed: false,
      owner: { id: ann.id, username: ann.username },
    })
    expect(list).not.toHaveProperty('hasMember')
    expect(Date.parse(list.createdAt)).not.toBeNaN()
    const detail = (await getList(ann, list.id)).json() as Schemas['ListDetailResponse']
    expect(detail).toEqual({ list, members: [], nextCursor: null })
  })

  it.each([
    [{ name: '' }, 'Name is required'],
    [{ name: '   ' }, 'Name is required'],
    [{ name: 'x'.repeat(LIMITS.listNameMax + 1) }, `Name must be at most ${LIMITS.listNameMax} characters`],
    [{ name: ` ${'x'.repeat(LIMITS.listNameMax - 2)} ` }, null],
    [{ name: '🐦'.repeat(LIMITS.listNameMax) }, null],
    [{ name: 'ok', description: 'd'.repeat(LIMITS.listDescriptionMax + 1) }, `Description must be at most ${LIMITS.listDescriptionMax} characters`],
    [{ name: 'ok', isPrivate: 'yes' }, null],
    [{}, null],
    [{ name: 'ok', memberCount: 5 }, 'Unknown field: memberCount'],
  ])('refuses bad input %j with 400 in the product words', async (body, message) => {
    const res = await createList(ann, body)
    if (message === null && 'name' in body && !('isPrivate' in body)) {
      expectStatus(res, 201)
      return
    }
    expectStatus(res, 400)
    if (message) expect(errorOf(res)).toBe(message)
  })

  it('edits only the fields given; blank or too long names are refused', async () => {
    const list = await newList(ann, 'Old name', { description: 'keep me' })
    const renamed = await editList(ann, list.id, { name: ' New name ' })
    expectStatus(renamed, 200)
    expect((renamed.json() as Schemas['ListResponse']).list).toMatchObject({ name: 'New name', description: 'keep me', isPrivate: false })
    expect(errorOf(await editList(ann, list.id, { name: ' ' }))).toBe('Name is required')
    expect(errorOf(await editList(ann, list.id, { description: 'd'.repeat(201) }))).toBe('Description must be at most 200 characters')
    expectStatus(await editList(ann, list.id, {}), 400)
    const cleared = await editList(ann, list.id, { description: '   ', isPrivate: true })
    expect((cleared.json() as Schemas['ListResponse']).list).toMatchObject({ name: 'New name', description: '', isPrivate: true })
  })

  it("never changes another member's list: 403 when they may see it, 404 when private", async () => {
    const open = await newList(ann, 'Open')
    const closed = await newList(ann, 'Closed', { isPrivate: true })
    await add(ann, open.id, bob)
    for (const id of [open.id, closed.id]) {
      const status = id === open.id ? 403 : 404
      const edit = await editList(bob, id, { name: 'Mine now' })
      expectStatus(edit, status)
      expect(errorOf(edit)).toBe(status === 403 ? 'You can only change your own lists' : 'List not found')
      expectStatus(await deleteList(bob, id), status)
      expectStatus(await addMember(bob, id, bob.id), status)
      expectStatus(await removeMember(bob, id, bob.id), status)
    }
    const after = (await getList(ann, open.id)).json() as Schemas['ListDetailResponse']
    expect(after.list).toMatchObject({ name: 'Open', memberCount: 1 })
    expect(after.members.map((m) => m.id)).toEqual([bob.id])
    expectStatus(await getList(ann, closed.id), 200)
  })

  it('keeps a private list invisible to everyone but its owner (404 everywhere)', async () => {
    const secret = await newList(ann, 'Secret', { isPrivate: true })
    await add(ann, secret.id, bob)
    const res = await getList(bob, secret.id)
    expectStatus(res, 404)
    expect(errorOf(res)).toBe('List not found')
    expectStatus(await timelineRes(bob, secret.id), 404)
    expectStatus(await subscribe(bob, secret.id), 404)
    expect((await listsOf(bob)).lists.map((l) => l.id)).not.toContain(secret.id)
    expectStatus(await getList(ann, secret.id), 200)
  })

  it('deletes a list with its members and subscriptions; again is 404', async () => {
    const list = await newList(ann, 'Doomed')
    await add(ann, list.id, bob)
    expectStatus(await subscribe(bob, list.id), 200)
    expectStatus(await deleteList(ann, list.id), 204)
    expectStatus(await getList(ann, list.id), 404)
    expectStatus(await deleteList(ann, list.id), 404)
    expect((await listsOf(bob)).lists.map((l) => l.id)).not.toContain(list.id)
  })

  it('answers 404 for an unknown or malformed list id, never 500', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      expectStatus(await getList(ann, id), 404)
      expectStatus(await editList(ann, id, { name: 'x' }), 404)
      expectStatus(await deleteList(ann, id), 404)
      expectStatus(await addMember(ann, id, bob.id), 404)
      expectStatus(await timelineRes(ann, id), 404)
      expectStatus(await subscribe(ann, id), 404)
    }
    const list = await newList(ann, 'Cursor')
    expectStatus(await getList(ann, list.id, '?cursor=garbage'), 400)
    expectStatus(await timelineRes(ann, list.id, '?cursor=garbage'), 400)
  })
})

describe('members', () => {
  let ann: Member
  let bob: Member
  let cat: Member
  beforeAll(async () => {
    ;[ann, bob, cat] = await team('mem')
  })

  it('adds and removes members with the exact count; a duplicate is 409; a missing member 404', async () => {
    const list = await newList(ann, 'Crew')
    expect((await add(ann, list.id, bob)).memberCount).toBe(1)
    expect((await add(ann, list.id, cat)).memberCount).toBe(2)
    const again = await addMember(ann, list.id, bob.id)
    expectStatus(again, 409)
    expect(errorOf(again)).toBe('This member is already on the list')
    const unknown = await addMember(ann, list.id, randomUUID())
    expectStatus(unknown, 404)
    expect(errorOf(unknown)).toBe('User not found')
    expectStatus(await addMember(ann, list.id, 'nobody'), 404)
    expectStatus(await addMember(ann, list.id, undefined), 400)
    const detail = (await getList(ann, list.id)).json() as Schemas['ListDetailResponse']
    expect(detail.members.map((m) => m.username)).toEqual([cat.username, bob.username])
    const removed = await removeMember(ann, list.id, bob.id)
    expectStatus(removed, 200)
    expect((removed.json() as Schemas['ListResponse']).list.memberCount).toBe(1)
    const notThere = await removeMember(ann, list.id, bob.id)
    expectStatus(notThere, 404)
    expect(errorOf(notThere)).toBe('This member is not on the list')
    expect(await memberCountOf(ann, list.id)).toBe(1)
  })

  it('pages members most recent first with no gaps or duplicates', async () => {
    const list = await newList(ann, 'Many')
    const people = await quickMembers(t.app, 7, 'pg')
    for (const p of people) await add(ann, list.id, p)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res = await getList(ann, list.id, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`)
      const page = res.json() as Schemas['ListDetailResponse']
      seen.push(...page.members.map((m) => m.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toEqual(people.map((p) => p.id).reverse())
  })

  it('keeps memberCount exact under 20 concurrent adds (and 20 concurrent adds of one member count once)', async () => {
    const list = await newList(ann, 'Rush')
    const people = await quickMembers(t.app, 20, 'rush')
    const results = await Promise.all(people.map((p) => addMember(ann, list.id, p.id)))
    expect(results.map((r) => r.statusCode)).toEqual(people.map(() => 201))
    expect(await memberCountOf(ann, list.id)).toBe(20)
    const counts = results.map((r) => (r.json() as Schemas['ListResponse']).list.memberCount).sort((a, b) => a - b)
    expect(counts.at(-1)).toBe(20)

    const same = await newList(ann, 'Same')
    const racing = await Promise.all(people.slice(0, 1).flatMap((p) => Array.from({ length: 20 }, () => addMember(ann, same.id, p.id))))
    expect(racing.filter((r) => r.statusCode === 201)).toHaveLength(1)
    expect(racing.filter((r) => r.statusCode === 409)).toHaveLength(19)
    expect(await memberCountOf(ann, same.id)).toBe(1)

    const removals = await Promise.all(people.map((p) => removeMember(ann, list.id, p.id)))
    expect(removals.every((r) => r.statusCode === 200)).toBe(true)
    expect(await memberCountOf(ann, list.id)).toBe(0)
  })

  it('refuses a member across a block either way, and a block takes existing members out', async () => {
    const [owner, blocker, blocked, kept] = await team('blk')
    const list = await newList(owner, 'Walls')
    expectStatus(await block(blocker, owner), 201)
    expectStatus(await block(owner, blocked), 201)
    for (const who of [blocker, blocked]) {
      const res = await addMember(owner, list.id, who.id)
      expectStatus(res, 404)
      expect(errorOf(res)).toBe('User not found')
    }
    await add(owner, list.id, kept)
    expect(await memberCountOf(owner, list.id)).toBe(1)
    // Already on the list, then a block: they leave the list, the count follows.
    expectStatus(await block(kept, owner), 201)
    const detail = (await getList(owner, list.id)).json() as Schemas['ListDetailResponse']
    expect(detail.members).toEqual([])
    expect(detail.list.memberCount).toBe(0)
    // The blocker cannot see the owner's list either.
    expectStatus(await getList(kept, list.id), 404)
    expectStatus(await unblock(kept, owner), 204)
    await add(owner, list.id, kept)
  })

  it("tells, per list, whether a member is on it (a profile's Add to list)", async () => {
    const [owner, target] = await team('has')
    const a = await newList(owner, 'A')
    const b = await newList(owner, 'B')
    await add(owner, a.id, target)
    const page = await listsOf(owner, `?scope=owned&member=${target.id}`)
    expect(page.lists.map((l) => [l.name, l.hasMember])).toEqual([
      ['B', false],
      ['A', true],
    ])
    expect((await listsOf(owner, '?scope=owned&member=bogus')).lists.every((l) => l.hasMember === false)).toBe(true)
    expect(b.memberCount).toBe(0)
  })

  it(`refuses the ${LIMITS.listMembersMax + 1}th member`, async () => {
    const [owner, one] = await team('full')
    const list = await newList(owner, 'Full')
    // The count the trigger keeps, brought to the limit directly (5,000 members would take minutes here).
    await t.app.services.db.execute(
      (await import('drizzle-orm')).sql`update lists set member_count = ${LIMITS.listMembersMax} where id = ${list.id}`,
    )
    const res = await addMember(owner, list.id, one.id)
    expectStatus(res, 400)
    expect(errorOf(res)).toBe('A list can have at most 5,000 members')
  })
})

describe('subscriptions', () => {
  let ann: Member
  let bob: Member
  beforeAll(async () => {
    ;[ann, bob] = await team('sub')
  })

  it("subscribes to another member's public list, idempotently both ways, with the exact count", async () => {
    const list = await newList(ann, 'Public')
    const on = await subscribe(bob, list.id)
    expectStatus(on, 200)
    expect(on.json()).toEqual({ subscribed: true, subscriberCount: 1 })
    expect((await subscribe(bob, list.id)).json()).toEqual({ subscribed: true, subscriberCount: 1 })
    expect(((await getList(bob, list.id)).json() as Schemas['ListDetailResponse']).list).toMatchObject({ subscribed: true, subscriberCount: 1 })
    expect((await unsubscribe(bob, list.id)).json()).toEqual({ subscribed: false, subscriberCount: 0 })
    expect((await unsubscribe(bob, list.id)).json()).toEqual({ subscribed: false, subscriberCount: 0 })
  })

  it('refuses one own list (400) and a private or unknown one (404)', async () => {
    const mine = await newList(ann, 'Mine')
    const own = await subscribe(ann, mine.id)
    expectStatus(own, 400)
    expect(errorOf(own)).toBe('You cannot subscribe to your own list')
    const secret = await newList(ann, 'Secret', { isPrivate: true })
    const hidden = await subscribe(bob, secret.id)
    expectStatus(hidden, 404)
    expect(errorOf(hidden)).toBe('List not found')
    expectStatus(await subscribe(bob, randomUUID()), 404)
    expectStatus(await unsubscribe(bob, randomUUID()), 404)
  })

  it('shows subscribed lists beside own ones, most recent first, by scope and paged', async () => {
    const [owner, reader] = await team('scope')
    const mine1 = await newList(reader, 'Mine 1')
    const theirs1 = await newList(owner, 'Theirs 1')
    const theirs2 = await newList(owner, 'Theirs 2')
    expectStatus(await subscribe(reader, theirs2.id), 200)
    const mine2 = await newList(reader, 'Mine 2')
    expectStatus(await subscribe(reader, theirs1.id), 200)
    const names = (page: Schemas['ListsPage']) => page.lists.map((l) => l.name)
    expect(names(await listsOf(reader))).toEqual(['Theirs 1', 'Mine 2', 'Theirs 2', 'Mine 1'])
    expect(names(await listsOf(reader, '?scope=owned'))).toEqual(['Mine 2', 'Mine 1'])
    expect(names(await listsOf(reader, '?scope=subscribed'))).toEqual(['Theirs 1', 'Theirs 2'])
    expectStatus(await api(t.app, 'GET', '/api/lists?scope=nope', { token: reader.token }), 400)
    const first = await listsOf(reader, '?limit=3')
    expect(names(first)).toEqual(['Theirs 1', 'Mine 2', 'Theirs 2'])
    expect(first.lists.find((l) => l.id === theirs1.id)).toMatchObject({ subscribed: true, owner: { id: owner.id } })
    const rest = await listsOf(reader, `?limit=3&cursor=${first.nextCursor}`)
    expect(names(rest)).toEqual(['Mine 1'])
    expect(rest.nextCursor).toBeNull()
    expect([mine1, mine2].every((l) => !l.subscribed)).toBe(true)
  })

  it('drops subscribers when a list turns private, and hides a subscribed list across a block', async () => {
    const [owner, reader] = await team('turn')
    const list = await newList(owner, 'Turns')
    expectStatus(await subscribe(reader, list.id), 200)
    const closed = await editList(owner, list.id, { isPrivate: true })
    expect((closed.json() as Schemas['ListResponse']).list).toMatchObject({ isPrivate: true, subscriberCount: 0 })
    expect((await listsOf(reader)).lists).toEqual([])
    await editList(owner, list.id, { isPrivate: false })
    expect((await listsOf(reader)).lists).toEqual([])
    expectStatus(await subscribe(reader, list.id), 200)
    expectStatus(await block(owner, reader), 201)
    expect((await listsOf(reader)).lists).toEqual([])
    expectStatus(await getList(reader, list.id), 404)
  })
})

describe('the list timeline', () => {
  let viewer: Member
  let a: Member
  let b: Member
  let outsider: Member
  let list: List
  beforeAll(async () => {
    ;[viewer, a, b, outsider] = await team('tl')
    list = await newList(viewer, 'Timeline')
    await add(viewer, list.id, a)
    await add(viewer, list.id, b)
  })

  it("shows the members' posts newest first, not the viewer's own or an outsider's, and the same through subscription", async () => {
    await publish(t.app, a.token, 'a says one')
    await publish(t.app, outsider.token, 'outsider speaks')
    await publish(t.app, viewer.token, 'viewer speaks')
    await publish(t.app, b.token, 'b says two')
    const shown = await contents(viewer, list.id)
    expect(shown).toEqual(['b says two', 'a says one'])
    // The timeline is the home feed's rules over the members: what the viewer's feed shows if they follow a and b.
    const [reader] = await team('rd')
    await follow(t.app, reader, a)
    await follow(t.app, reader, b)
    expect((await feed(t.app, reader.token, '?limit=100')).posts.map((p) => p.content)).toEqual(shown)
    expectStatus(await subscribe(reader, list.id), 200)
    expect(await contents(reader, list.id)).toEqual(shown)
  })

  it('applies visibility: followers-only posts only to followers of the author, mentioned posts only to the mentioned', async () => {
    const [owner, author] = await team('vis')
    const l = await newList(owner, 'Vis')
    await add(owner, l.id, author)
    await publish(t.app, author.token, 'for followers', { visibility: 'followers' })
    await publish(t.app, author.token, `hi @${owner.username}`, { visibility: 'mentioned' })
    await publish(t.app, author.token, 'for everyone')
    expect(await contents(owner, l.id)).toEqual(['for everyone', `hi @${owner.username}`])
    await follow(t.app, owner, author)
    expect(await contents(owner, l.id)).toEqual(['for everyone', `hi @${owner.username}`, 'for followers'])
    // A subscriber who does not follow the author sees only what is public to them.
    const [reader] = await team('vr')
    expectStatus(await subscribe(reader, l.id), 200)
    expect(await contents(reader, l.id)).toEqual(['for everyone'])
  })

  it('hides a private account the viewer does not follow', async () => {
    const [owner, locked] = await team('lock')
    const l = await newList(owner, 'Locked')
    await add(owner, l.id, locked)
    await publish(t.app, locked.token, 'locked thoughts')
    expectStatus(await api(t.app, 'PATCH', '/api/users/profile', { token: locked.token, body: { privateAccount: true } }), 200)
    expect(await contents(owner, l.id)).toEqual([])
  })

  it("leaves out members across a block from a subscriber (their rows stay for the owner)", async () => {
    const [owner, member, reader] = await team('bw')
    const l = await newList(owner, 'Blocks')
    await add(owner, l.id, member)
    await publish(t.app, member.token, 'member post')
    expectStatus(await subscribe(reader, l.id), 200)
    expect(await contents(reader, l.id)).toEqual(['member post'])
    expectStatus(await block(member, reader), 201)
    expect(await contents(reader, l.id)).toEqual([])
    expect(((await getList(reader, l.id)).json() as Schemas['ListDetailResponse']).members).toEqual([])
    expect(await contents(owner, l.id)).toEqual(['member post'])
  })

  it("applies the viewer's mutes (member, keyword, domain) and blocked keywords and domains", async () => {
    const [owner, loud, calm] = await team('mute')
    const l = await newList(owner, 'Mutes')
    await add(owner, l.id, loud)
    await add(owner, l.id, calm)
    await publish(t.app, loud.token, 'loud post')
    await publish(t.app, calm.token, 'talking spoilers here')
    await publish(t.app, calm.token, 'see https://news.spam.example/x')
    await publish(t.app, calm.token, 'rude words')
    await publish(t.app, calm.token, 'plain post')
    const token = owner.token
    expectStatus(await api(t.app, 'POST', '/api/mutes/user', { token, body: { userId: loud.id } }), 201)
    expectStatus(await api(t.app, 'POST', '/api/mutes/keyword', { token, body: { keyword: 'Spoilers' } }), 201)
    expectStatus(await api(t.app, 'POST', '/api/mutes/domain', { token, body: { domain: 'spam.example' } }), 201)
    expectStatus(await api(t.app, 'POST', '/api/blocks/keyword', { token, body: { keyword: 'rude' } }), 201)
    expect(await contents(owner, l.id)).toEqual(['plain post'])
    // A subscriber's own mutes apply, not the owner's.
    const [reader] = await team('mr')
    expectStatus(await subscribe(reader, l.id), 200)
    expect(await contents(reader, l.id)).toEqual(['plain post', 'rude words', 'see https://news.spam.example/x', 'talking spoilers here', 'loud post'])
  })

  it("brings in members' reposts of outsiders once (earliest), and replies only when they answer a member", async () => {
    const [owner, m1, m2, stranger] = await team('rp')
    const l = await newList(owner, 'Reposts')
    await add(owner, l.id, m1)
    await add(owner, l.id, m2)
    const original = await publish(t.app, stranger.token, 'stranger original')
    expectStatus(await api(t.app, 'POST', `/api/posts/${original.id}/repost`, { token: m1.token }), 200)
    expectStatus(await api(t.app, 'POST', `/api/posts/${original.id}/repost`, { token: m2.token }), 200)
    const m1Post = await publish(t.app, m1.token, 'm1 post')
    await publish(t.app, m2.token, 'm2 answers m1', { replyTo: m1Post.id })
    await publish(t.app, m2.token, 'm2 answers stranger', { replyTo: original.id })
    const page = await timeline(owner, l.id, '?limit=100')
    expect(page.posts.map((p) => p.content)).toEqual(['m2 answers m1', 'm1 post', 'stranger original'])
    expect(page.posts.find((p) => p.id === original.id)?.repostedBy?.id).toBe(m1.id)
  })

  it('pages with the home feed cursor: no gaps, no duplicates, new posts never slip in; deleted posts are gone', async () => {
    const [owner, m1, m2] = await team('page')
    const l = await newList(owner, 'Paging')
    await add(owner, l.id, m1)
    await add(owner, l.id, m2)
    const made: string[] = []
    for (let i = 0; i < 25; i += 1) made.push((await publish(t.app, (i % 2 ? m1 : m2).token, `post ${i}`)).id)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page: Schemas['FeedResponse'] = await timeline(owner, l.id, `?limit=7${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...page.posts.map((p) => p.id))
      cursor = page.nextCursor
      pages += 1
      if (pages === 2) await publish(t.app, m1.token, 'arrives mid-way')
    } while (cursor)
    expect(seen).toEqual([...made].reverse())
    expect(pages).toBe(4)
    // page/limit are accepted too.
    expect((await timeline(owner, l.id, '?page=2&limit=7')).posts.map((p) => p.content)[0]).toBe('post 18')
    const victim = made[24] as string
    expectStatus(await api(t.app, 'DELETE', `/api/posts/${victim}`, { token: m2.token }), 204)
    const after = await timeline(owner, l.id, '?limit=100')
    expect(after.posts.map((p) => p.id)).not.toContain(victim)
    expect(after.posts[0]?.content).toBe('arrives mid-way')
  })

  it('stays exact right after every change, with the first page cached per list and reader', async () => {
    const [owner, m1, m2, reader] = await team('fresh')
    const l = await newList(owner, 'Fresh')
    await add(owner, l.id, m1)
    await publish(t.app, m1.token, 'm1 first')
    await publish(t.app, m2.token, 'm2 first')
    expectStatus(await subscribe(reader, l.id), 200)
    expect(await contents(owner, l.id, '')).toEqual(['m1 first'])
    expect(await contents(reader, l.id, '')).toEqual(['m1 first'])
    // A member added: their posts show at once, to every reader.
    await add(owner, l.id, m2)
    expect(await contents(owner, l.id, '')).toEqual(['m2 first', 'm1 first'])
    expect(await contents(reader, l.id, '')).toEqual(['m2 first', 'm1 first'])
    // A member posts.
    await publish(t.app, m1.token, 'm1 second')
    expect(await contents(reader, l.id, '')).toEqual(['m1 second', 'm2 first', 'm1 first'])
    // The reader mutes a member: only their own reading changes.
    expectStatus(await api(t.app, 'POST', '/api/mutes/user', { token: reader.token, body: { userId: m1.id } }), 201)
    expect(await contents(reader, l.id, '')).toEqual(['m2 first'])
    expect(await contents(owner, l.id, '')).toEqual(['m1 second', 'm2 first', 'm1 first'])
    // A member removed.
    expectStatus(await removeMember(owner, l.id, m2.id), 200)
    expect(await contents(owner, l.id, '')).toEqual(['m1 second', 'm1 first'])
    // A member blocks the owner: they leave the list, for every reader at once.
    expectStatus(await api(t.app, 'DELETE', `/api/mutes/user/${m1.id}`, { token: reader.token }), 204)
    expect(await contents(reader, l.id, '')).toEqual(['m1 second', 'm1 first'])
    expectStatus(await block(m1, owner), 201)
    expect(await contents(reader, l.id, '')).toEqual([])
    expect(await contents(owner, l.id, '')).toEqual([])
  })

  it('answers the same keys with either plan (per-member and scan)', async () => {
    const db = t.app.services.db
    const source = { kind: 'list' as const, listId: list.id }
    const perSource = await feedKeys(db, viewer.id, undefined, 50, 'per-source', source)
    expect(perSource.length).toBeGreaterThan(0)
    expect(await feedKeys(db, viewer.id, undefined, 50, 'scan', source)).toEqual(perSource)
  })

  it('is empty for a list with no members', async () => {
    const empty = await newList(viewer, 'Empty')
    expect(await timeline(viewer, empty.id)).toEqual({ posts: [], nextCursor: null })
  })
})
