import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { CONTENT_REQUIRED, NOT_A_QUOTE, ONLY_PUBLIC_QUOTES, ONLY_QUOTED_AUTHOR_DETACHES } from '../../server/modules/posts/service'
import { feed, field, follow, type Member, type Post, publish, quickMember, send } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// docs/product.md, "Quotes". Runs with the caches on and, in `npm test`'s second pass, off (WREN_TEST_CACHES=off):
// every read below is made again after each change, so a stale cached card or flag would show.
const t = useTestApp()

const errorOf = (res: { json: () => unknown }) => (res.json() as ErrorBody).error
const quote = (who: Member, quoteOf: string, content = 'quoting this', extra: Record<string, string> = {}) =>
  send(t.app, 'POST', '/api/posts', who.token, [field('content', content), field('quoteOf', quoteOf), ...Object.entries(extra).map(([k, v]) => field(k, v))])
async function quoted(who: Member, quoteOf: string, content = 'quoting this', extra: Record<string, string> = {}): Promise<Post> {
  const res = await quote(who, quoteOf, content, extra)
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as Schemas['PostResponse']).post
}
async function read(who: Member, id: string): Promise<Post> {
  const res = await api(t.app, 'GET', `/api/posts/${id}`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as Schemas['PostDetailResponse']).post
}
/** What the viewer sees nested in a quote: the quoted text, or 'unavailable'. */
const nested = async (who: Member, id: string) => {
  const q = (await read(who, id)).quote
  return q === null || q === undefined ? null : (q.post?.content ?? 'unavailable')
}
const quotesOf = (who: Member, id: string, query = '') => api(t.app, 'GET', `/api/posts/${id}/quotes${query}`, { token: who.token })
async function quoteContents(who: Member, id: string, query = ''): Promise<string[]> {
  const res = await quotesOf(who, id, query)
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as Schemas['PostsPage']).posts.map((p) => p.content)
}
const detach = (who: Member, quoteId: string) => api(t.app, 'POST', `/api/posts/${quoteId}/detach`, { token: who.token })
const block = (who: Member, target: Member) => api(t.app, 'POST', `/api/blocks/user/${target.id}`, { token: who.token })
const unblock = (who: Member, target: Member) => api(t.app, 'DELETE', `/api/blocks/user/${target.id}`, { token: who.token })
const setPrivate = async (who: Member, privateAccount: boolean) => {
  const res = await api(t.app, 'PATCH', '/api/users/profile', { token: who.token, body: { privateAccount } })
  expect(res.statusCode, res.body).toBe(200)
}
async function inbox(who: Member): Promise<Array<[string, string, string | null]>> {
  const res = await api(t.app, 'GET', '/api/notifications', { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as Schemas['NotificationsPage']).notifications.map((n) => [n.type, n.from.username, n.post?.content ?? null])
}

describe('quoting a post', () => {
  let ann: Member
  let bob: Member
  let cat: Member
  beforeAll(async () => {
    ;[ann, bob, cat] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob'), await quickMember(t.app, 'cat')]
  })

  it('nests the quoted card in the quote, counts it on the quoted post, and shows it in feeds', async () => {
    const original = await publish(t.app, ann.token, 'the original')
    expect(original.quote).toBeNull()
    expect(original.quoteCount).toBe(0)
    const q = await quoted(bob, original.id, 'well said')
    expect(q.quote?.post).toMatchObject({ id: original.id, content: 'the original', author: { id: ann.id }, media: [], sensitive: false })
    expect(q.quote?.post?.createdAt).toBe(original.createdAt)
    expect((await read(cat, original.id)).quoteCount).toBe(1)
    await follow(t.app, cat, bob)
    const item = (await feed(t.app, cat.token)).posts.find((p) => p.id === q.id)
    expect(item?.quote?.post?.content).toBe('the original')
    // A followers-only quote is not counted on the card (a count must not reveal a post the viewer may not see).
    await quoted(bob, original.id, 'for my followers', { visibility: 'followers' })
    expect((await read(cat, original.id)).quoteCount).toBe(1)
  })

  it('refuses non-public posts, posts the author may not see, unknown ids and an empty quote', async () => {
    const followersOnly = await publish(t.app, ann.token, 'friends only', { visibility: 'followers' })
    await follow(t.app, bob, ann)
    const refused = await quote(bob, followersOnly.id)
    expect(refused.statusCode).toBe(403)
    expect(errorOf(refused)).toBe(ONLY_PUBLIC_QUOTES)
    const mentioned = await publish(t.app, ann.token, `hi @${bob.username}`, { visibility: 'mentioned' })
    expect(errorOf(await quote(bob, mentioned.id))).toBe(ONLY_PUBLIC_QUOTES)
    // One the author may not see at all answers like a post that does not exist.
    expect(errorOf(await quote(cat, followersOnly.id))).toBe('Post not found')
    const unknown = await quote(bob, randomUUID())
    expect(unknown.statusCode).toBe(404)
    expect((await quote(bob, 'not-an-id')).statusCode).toBe(404)
    const original = await publish(t.app, ann.token, 'quote me')
    const empty = await quote(bob, original.id, '   ')
    expect(empty.statusCode).toBe(400)
    expect(errorOf(empty)).toBe(CONTENT_REQUIRED)
    expect((await read(ann, original.id)).quoteCount).toBe(0)
  })

  it('refuses across a block either way, and a private account the author does not follow', async () => {
    const [dan, eve] = [await quickMember(t.app, 'dan'), await quickMember(t.app, 'eve')]
    const post = await publish(t.app, dan.token, 'dan says')
    expect((await block(dan, eve)).statusCode).toBe(201)
    expect(errorOf(await quote(eve, post.id))).toBe('Post not found')
    const evePost = await publish(t.app, eve.token, 'eve says')
    expect(errorOf(await quote(dan, evePost.id))).toBe('Post not found')
    await unblock(dan, eve)
    await setPrivate(dan, true)
    expect(errorOf(await quote(eve, post.id))).toBe('Post not found')
    await setPrivate(dan, false)
    expect((await quote(eve, post.id)).statusCode).toBe(201)
  })

  it('hostile text is kept as typed, and the limits are those of any post', async () => {
    const post = await publish(t.app, ann.token, '<b>bold</b>')
    const q = await quoted(bob, post.id, '<script>alert(1)</script>')
    expect(q.content).toBe('<script>alert(1)</script>')
    expect(q.quote?.post?.content).toBe('<b>bold</b>')
    expect((await quote(bob, post.id, 'x'.repeat(501))).statusCode).toBe(400)
  })
})

describe('the nested card becomes unavailable', () => {
  let ann: Member
  let bob: Member
  let cat: Member
  beforeAll(async () => {
    ;[ann, bob, cat] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob'), await quickMember(t.app, 'cat')]
  })

  it('when the quoted post is deleted; the quote stays', async () => {
    const original = await publish(t.app, ann.token, 'soon gone')
    const q = await quoted(bob, original.id)
    expect(await nested(cat, q.id)).toBe('soon gone')
    expect((await api(t.app, 'DELETE', `/api/posts/${original.id}`, { token: ann.token })).statusCode).toBe(204)
    expect(await nested(cat, q.id)).toBe('unavailable')
    expect(await nested(bob, q.id)).toBe('unavailable')
  })

  it('when the quote is deleted, the quoted post counts one fewer', async () => {
    const original = await publish(t.app, ann.token, 'counted')
    const q = await quoted(bob, original.id)
    expect((await read(cat, original.id)).quoteCount).toBe(1)
    await api(t.app, 'DELETE', `/api/posts/${q.id}`, { token: bob.token })
    expect((await read(cat, original.id)).quoteCount).toBe(0)
  })

  it('for a viewer on either side of a block with the quoted author, only for them', async () => {
    const original = await publish(t.app, ann.token, 'blocked soon')
    const q = await quoted(bob, original.id)
    expect(await nested(cat, q.id)).toBe('blocked soon')
    await block(cat, ann)
    expect(await nested(cat, q.id)).toBe('unavailable')
    expect(await nested(bob, q.id)).toBe('blocked soon')
    await unblock(cat, ann)
    expect(await nested(cat, q.id)).toBe('blocked soon')
    await block(ann, cat)
    expect(await nested(cat, q.id)).toBe('unavailable')
    await unblock(ann, cat)
    expect(await nested(cat, q.id)).toBe('blocked soon')
  })

  it('when the quoted author turns private, for those who do not follow them', async () => {
    const [dan, fan] = [await quickMember(t.app, 'dan'), await quickMember(t.app, 'fan')]
    const original = await publish(t.app, dan.token, 'going private')
    const q = await quoted(bob, original.id)
    await follow(t.app, fan, dan)
    expect(await nested(cat, q.id)).toBe('going private')
    await setPrivate(dan, true)
    expect(await nested(cat, q.id)).toBe('unavailable')
    expect(await nested(fan, q.id)).toBe('going private')
    expect(await nested(dan, q.id)).toBe('going private')
    await setPrivate(dan, false)
    expect(await nested(cat, q.id)).toBe('going private')
  })

  it('a post that quotes nothing has no quote at all', async () => {
    expect(await nested(cat, (await publish(t.app, bob.token, 'plain')).id)).toBeNull()
  })
})

describe('quote notifications', () => {
  it('tell the quoted author once, even when the quote also mentions them', async () => {
    const [ann, bob] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob')]
    const original = await publish(t.app, ann.token, 'notify me')
    await quoted(bob, original.id, `look @${ann.username}`)
    expect(await inbox(ann)).toEqual([['quote', bob.username, `look @${ann.username}`]])
    // Quoting oneself tells nobody.
    await quoted(ann, original.id, 'me again')
    expect(await inbox(ann)).toHaveLength(1)
  })

  it('a reply that quotes the parent tells its author once, as a reply', async () => {
    const [ann, bob] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob')]
    const original = await publish(t.app, ann.token, 'parent')
    await quoted(bob, original.id, 'reply and quote', { replyTo: original.id })
    expect((await inbox(ann)).map(([type]) => type)).toEqual(['reply'])
  })

  it('respect the preference and mutes', async () => {
    const [ann, bob, cat] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob'), await quickMember(t.app, 'cat')]
    const original = await publish(t.app, ann.token, 'quiet please')
    const off = await api(t.app, 'PATCH', '/api/notifications/preferences', { token: ann.token, body: { quote: false } })
    expect(off.json()).toMatchObject({ quote: false })
    await quoted(bob, original.id)
    expect(await inbox(ann)).toEqual([])
    await api(t.app, 'PATCH', '/api/notifications/preferences', { token: ann.token, body: { quote: true } })
    expect((await api(t.app, 'POST', '/api/mutes/user', { token: ann.token, body: { userId: cat.id } })).statusCode).toBeLessThan(300)
    await quoted(cat, original.id)
    expect(await inbox(ann)).toEqual([])
    await quoted(bob, original.id, 'again')
    expect((await inbox(ann)).map(([type, from]) => [type, from])).toEqual([['quote', bob.username]])
  })
})

describe('the quotes of a post', () => {
  let ann: Member
  let bob: Member
  let cat: Member
  let original: Post
  beforeAll(async () => {
    ;[ann, bob, cat] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob'), await quickMember(t.app, 'cat')]
    original = await publish(t.app, ann.token, 'much quoted')
    for (const n of [1, 2, 3]) await quoted(bob, original.id, `quote ${n}`)
  })

  it('are listed newest first, page by page', async () => {
    const first = await quotesOf(cat, original.id, '?limit=2')
    const body = first.json() as Schemas['PostsPage']
    expect(body.posts.map((p) => p.content)).toEqual(['quote 3', 'quote 2'])
    expect(body.posts[0]?.quote?.post?.id).toBe(original.id)
    expect(body.nextCursor).not.toBeNull()
    expect(await quoteContents(cat, original.id, `?limit=2&cursor=${body.nextCursor ?? ''}`)).toEqual(['quote 1'])
    expect(await quoteContents(cat, original.id, '?page=2&limit=2')).toEqual(['quote 1'])
  })

  it('leave out quotes the viewer may not see, and answer 404 for a post they may not see', async () => {
    const secret = await quoted(cat, original.id, 'followers of cat', { visibility: 'followers' })
    expect(await quoteContents(ann, original.id)).toEqual(['quote 3', 'quote 2', 'quote 1'])
    expect(await quoteContents(cat, original.id)).toContain('followers of cat')
    await block(ann, bob)
    expect(await quoteContents(ann, original.id)).toEqual([])
    expect((await quotesOf(bob, original.id)).statusCode).toBe(404)
    await unblock(ann, bob)
    await api(t.app, 'DELETE', `/api/posts/${secret.id}`, { token: cat.token })
    expect((await quotesOf(cat, randomUUID())).statusCode).toBe(404)
  })
})

describe('detaching', () => {
  let ann: Member
  let bob: Member
  let cat: Member
  beforeAll(async () => {
    ;[ann, bob, cat] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob'), await quickMember(t.app, 'cat')]
  })

  it('only the quoted author may detach; then the quote shows it unavailable to everyone, for good', async () => {
    const original = await publish(t.app, ann.token, 'mine to detach')
    const q = await quoted(bob, original.id)
    expect(await nested(cat, q.id)).toBe('mine to detach')
    const byQuoter = await detach(bob, q.id)
    expect(byQuoter.statusCode).toBe(403)
    expect(errorOf(byQuoter)).toBe(ONLY_QUOTED_AUTHOR_DETACHES)
    expect((await detach(cat, q.id)).statusCode).toBe(403)
    const plain = await publish(t.app, bob.token, 'no quote here')
    expect(errorOf(await detach(cat, plain.id))).toBe(NOT_A_QUOTE)
    expect((await detach(cat, randomUUID())).statusCode).toBe(404)
    expect((await read(cat, original.id)).quoteCount).toBe(1)

    expect((await detach(ann, q.id)).statusCode).toBe(204)
    for (const who of [ann, bob, cat]) expect(await nested(who, q.id)).toBe('unavailable')
    expect((await read(cat, original.id)).quoteCount).toBe(0)
    expect(await quoteContents(cat, original.id)).toEqual([])
    // Twice changes nothing; the count stays exact.
    expect((await detach(ann, q.id)).statusCode).toBe(204)
    expect((await read(cat, original.id)).quoteCount).toBe(0)
    // Deleting the detached quote does not count it off again.
    const other = await quoted(cat, original.id)
    await api(t.app, 'DELETE', `/api/posts/${q.id}`, { token: bob.token })
    expect((await read(ann, original.id)).quoteCount).toBe(1)
    expect(await nested(ann, other.id)).toBe('mine to detach')
  })

  it('the quoted author may detach a quote they may not see (a block), and learns nothing of others', async () => {
    const original = await publish(t.app, ann.token, 'walls')
    const q = await quoted(bob, original.id)
    await block(bob, ann)
    expect((await detach(ann, q.id)).statusCode).toBe(204)
    await unblock(bob, ann)
    expect(await nested(cat, q.id)).toBe('unavailable')
    const hidden = await quoted(bob, original.id, 'hidden', { visibility: 'followers' })
    expect((await detach(cat, hidden.id)).statusCode).toBe(404)
  })
})
