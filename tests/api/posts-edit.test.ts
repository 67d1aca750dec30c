import { randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { field, feed, file, follow, type Member, png, publish, quickMember, send } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// PATCH /posts/{id} and GET /posts/{id}/history (docs/product.md, "Editing a post"), on both passes: with the caches
// (every read below after an edit goes through them) and without.

const t = useTestApp()
let ann: Member
let bob: Member
let cat: Member

beforeAll(async () => {
  ann = await quickMember(t.app, 'ann')
  bob = await quickMember(t.app, 'bob')
  cat = await quickMember(t.app, 'cat')
})

type Post = Schemas['Post']
type Version = Schemas['PostVersion']

const word = () => `w${randomBytes(4).toString('hex')}`
const errorOf = (res: { json: () => unknown }) => (res.json() as ErrorBody).error

const edit = (who: Member, id: string, body: Record<string, unknown>) =>
  api(t.app, 'PATCH', `/api/posts/${id}`, { token: who.token, body })

async function edited(who: Member, id: string, body: Record<string, unknown>): Promise<Post> {
  const res = await edit(who, id, body)
  if (res.statusCode !== 200) throw new Error(`updatePost answered ${res.statusCode}: ${res.body}`)
  return res.json<Schemas['PostResponse']>().post
}

const history = (who: Member, id: string, query = '') =>
  api(t.app, 'GET', `/api/posts/${id}/history${query}`, { token: who.token })

async function versions(who: Member, id: string, query = ''): Promise<Schemas['PostHistoryPage']> {
  const res = await history(who, id, query)
  if (res.statusCode !== 200) throw new Error(`getPostHistory answered ${res.statusCode}: ${res.body}`)
  return res.json<Schemas['PostHistoryPage']>()
}

async function postPage(who: Member, id: string) {
  return api(t.app, 'GET', `/api/posts/${id}`, { token: who.token })
}

async function search(who: Member, q: string): Promise<string[]> {
  const res = await api(t.app, 'GET', `/api/posts/search?q=${encodeURIComponent(q)}`, { token: who.token })
  expect(res.statusCode).toBe(200)
  return res.json<Schemas['PostsPage']>().posts.map((p) => p.id)
}

async function mentionItems(who: Member, postId: string) {
  const res = await api(t.app, 'GET', '/api/notifications?filter=mentions', { token: who.token })
  expect(res.statusCode).toBe(200)
  return res.json<Schemas['NotificationsPage']>().notifications.filter((n) => n.post?.id === postId)
}

async function unread(who: Member): Promise<number> {
  const res = await api(t.app, 'GET', '/api/notifications?limit=1', { token: who.token })
  return res.json<Schemas['NotificationsPage']>().unreadCount
}

describe('PATCH /posts/{id}: who and what', () => {
  it('lets the author change the text, sensitive flag and reason; the card shows edited everywhere at once', async () => {
    await follow(t.app, bob, ann)
    const post = await publish(t.app, ann.token, 'first words')
    expect(post).toMatchObject({ edited: false, editedAt: null })
    // Cached first: the feed, the post page and a search fill the caches with the old card.
    expect((await feed(t.app, bob.token)).posts.find((p) => p.id === post.id)?.content).toBe('first words')
    expect((await postPage(bob, post.id)).statusCode).toBe(200)

    const after = await edited(ann, post.id, { content: 'second words', sensitive: true, sensitiveReason: ' spoilers ' })
    expect(after).toMatchObject({ id: post.id, content: 'second words', sensitive: true, sensitiveReason: 'spoilers', edited: true })
    expect(after.editedAt).not.toBeNull()
    expect(after.createdAt).toBe(post.createdAt)

    const inFeed = (await feed(t.app, bob.token)).posts.find((p) => p.id === post.id)
    expect(inFeed).toMatchObject({ content: 'second words', edited: true, sensitive: true })
    const page = (await postPage(bob, post.id)).json<Schemas['PostDetailResponse']>()
    expect(page.post).toMatchObject({ content: 'second words', edited: true })
  })

  it('answers 403 to another member who can see the post, 404 to one who cannot, 401 without a session', async () => {
    const post = await publish(t.app, ann.token, 'mine only')
    const theirs = await edit(bob, post.id, { content: 'hijacked' })
    expect(theirs.statusCode).toBe(403)
    expect(errorOf(theirs)).toBe('You can only edit your own posts')
    const hidden = await publish(t.app, ann.token, 'for followers', { visibility: 'followers' })
    const stranger = await edit(cat, hidden.id, { content: 'hijacked' })
    expect(stranger.statusCode).toBe(404)
    expect((await edit(bob, '00000000-0000-7000-8000-000000000000', { content: 'x' })).statusCode).toBe(404)
    expect((await edit(bob, 'not-an-id', { content: 'x' })).statusCode).toBe(404)
    expect((await api(t.app, 'PATCH', `/api/posts/${post.id}`, { body: { content: 'x' } })).statusCode).toBe(401)
    expect((await postPage(ann, post.id)).json<Schemas['PostDetailResponse']>().post.content).toBe('mine only')
  })

  it('applies the rules of a new post, with their words', async () => {
    const post = await publish(t.app, ann.token, 'rules')
    const long = await edit(ann, post.id, { content: 'x'.repeat(501) })
    expect(long.statusCode).toBe(400)
    expect(errorOf(long)).toMatch(/at most 500 characters/)
    expect((await edit(ann, post.id, { content: '😀'.repeat(500) })).statusCode).toBe(200)
    const blank = await edit(ann, post.id, { content: '   ' })
    expect(blank.statusCode).toBe(400)
    expect(errorOf(blank)).toBe('Content is required when no media is attached')
    const reason = await edit(ann, post.id, { sensitive: true, sensitiveReason: 'r'.repeat(201) })
    expect(reason.statusCode).toBe(400)
    expect(errorOf(reason)).toMatch(/sensitiveReason must be at most 200 characters/)
    const unknown = await edit(ann, post.id, { content: 'ok', likeCount: 9 })
    expect(unknown.statusCode).toBe(400)
    expect(errorOf(unknown)).toBe('Unknown field: likeCount')
    const alts = await edit(ann, post.id, { alt: ['no media here'] })
    expect(alts.statusCode).toBe(400)
    expect(errorOf(alts)).toBe('Each alt text must describe an attached media file')
  })

  it('changes alt texts of media (not the files) and allows empty text on a post with media', async () => {
    const res = await send(t.app, 'POST', '/api/posts', ann.token, [
      field('content', 'a picture'),
      file('media', 'a.png', 'image/png', await png()),
      field('alt', 'old alt'),
    ])
    const post = res.json<Schemas['PostResponse']>().post
    const after = await edited(ann, post.id, { content: '', alt: ['a green square'] })
    expect(after.content).toBe('')
    expect(after.media).toHaveLength(1)
    expect(after.media[0]).toMatchObject({ id: post.media[0]?.id, url: post.media[0]?.url, alt: 'a green square' })
    const { versions: list } = await versions(bob, post.id)
    expect(list.map((v) => v.alts)).toEqual([['a green square'], ['old alt']])
  })

  it('narrows the audience only: public to followers to mentioned, never back', async () => {
    const post = await publish(t.app, ann.token, `only narrower @${bob.username}`)
    const wider = async (visibility: string) => {
      const res = await edit(ann, post.id, { visibility })
      expect(res.statusCode).toBe(400)
      expect(errorOf(res)).toBe('An edit can only narrow who can see a post')
    }
    expect((await edited(ann, post.id, { visibility: 'followers' })).visibility).toBe('followers')
    await wider('public')
    expect((await edited(ann, post.id, { visibility: 'mentioned' })).visibility).toBe('mentioned')
    await wider('followers')
    await wider('public')
    const bad = await edit(ann, post.id, { visibility: 'everyone' })
    expect(bad.statusCode).toBe(400)
  })

  it('takes a narrowed post out of cached feeds and pages of those who may no longer see it', async () => {
    const stranger = await quickMember(t.app, 'str')
    await follow(t.app, stranger, ann)
    const post = await publish(t.app, ann.token, 'soon followers-only')
    expect((await feed(t.app, stranger.token)).posts.some((p) => p.id === post.id)).toBe(true)
    await edited(ann, post.id, { visibility: 'mentioned' })
    expect((await feed(t.app, stranger.token)).posts.some((p) => p.id === post.id)).toBe(false)
    expect((await postPage(stranger, post.id)).statusCode).toBe(404)
  })

  it('records no version for an edit that changes nothing', async () => {
    const post = await publish(t.app, ann.token, 'unchanged')
    const same = await edited(ann, post.id, { content: 'unchanged', visibility: 'public' })
    expect(same.edited).toBe(false)
    expect((await versions(ann, post.id)).versions).toHaveLength(1)
  })
})

describe('GET /posts/{id}/history', () => {
  it('lists every version newest first, paginated, to anyone who can see the post', async () => {
    const post = await publish(t.app, ann.token, 'v0')
    const never = await versions(cat, post.id)
    expect(never.versions.map((v) => v.content)).toEqual(['v0'])
    expect(never.versions[0]?.createdAt).toBe(post.createdAt)
    for (let i = 1; i <= 4; i += 1) await edited(ann, post.id, { content: `v${i}` })
    await edited(ann, post.id, { visibility: 'followers' })
    await follow(t.app, cat, ann)
    const seen: Version[] = []
    let cursor: string | null = null
    do {
      const page: Schemas['PostHistoryPage'] = await versions(cat, post.id, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.versions.length).toBeLessThanOrEqual(2)
      seen.push(...page.versions)
      cursor = page.nextCursor
    } while (cursor)
    expect(seen.map((v) => `${v.content}/${v.visibility}`)).toEqual([
      'v4/followers',
      'v4/public',
      'v3/public',
      'v2/public',
      'v1/public',
      'v0/public',
    ])
    const times = seen.map((v) => Date.parse(v.createdAt))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
    expect(seen.at(-1)?.createdAt).toBe(post.createdAt)
    const byPage = await versions(cat, post.id, '?limit=2&page=2')
    expect(byPage.versions.map((v) => v.content)).toEqual(['v3', 'v2'])
  })

  it('is 404 to whoever cannot see the post, a blocked member included', async () => {
    const outsider = await quickMember(t.app, 'out')
    const hidden = await publish(t.app, ann.token, 'followers only', { visibility: 'followers' })
    expect((await history(outsider, hidden.id)).statusCode).toBe(404)
    const open = await publish(t.app, ann.token, 'public then edited')
    await edited(ann, open.id, { content: 'public, edited' })
    expect((await history(outsider, open.id)).statusCode).toBe(200)
    expect((await api(t.app, 'POST', `/api/blocks/user/${outsider.id}`, { token: ann.token })).statusCode).toBeLessThan(300)
    expect((await history(outsider, open.id)).statusCode).toBe(404)
    expect((await history(outsider, 'nope')).statusCode).toBe(404)
  })
})

describe('mentions, hashtags and search follow the new text', () => {
  it('notifies a newly mentioned member once, however many edits name them', async () => {
    const dan = await quickMember(t.app, 'dan')
    const post = await publish(t.app, ann.token, 'hello')
    expect(await mentionItems(dan, post.id)).toHaveLength(0)
    await edited(ann, post.id, { content: `hello @${dan.username}` })
    expect(await mentionItems(dan, post.id)).toHaveLength(1)
    await api(t.app, 'PATCH', '/api/notifications/read-all', { token: dan.token })
    expect(await unread(dan)).toBe(0)
    await edited(ann, post.id, { content: `hello again @${dan.username}` })
    await edited(ann, post.id, { content: 'hello, nobody' })
    await edited(ann, post.id, { content: `hello once more @${dan.username}` })
    expect(await mentionItems(dan, post.id)).toHaveLength(1)
    expect(await unread(dan)).toBe(0)
    expect((await postPage(ann, post.id)).json<Schemas['PostDetailResponse']>().post.mentions).toEqual([dan.username])
  })

  it('a member no longer mentioned loses a mentioned-only post; a newly mentioned one gains it', async () => {
    const [eve, fay] = [await quickMember(t.app, 'eve'), await quickMember(t.app, 'fay')]
    const post = await publish(t.app, ann.token, `secret for @${eve.username}`, { visibility: 'mentioned' })
    expect((await postPage(eve, post.id)).statusCode).toBe(200)
    expect((await history(eve, post.id)).statusCode).toBe(200)
    expect((await postPage(fay, post.id)).statusCode).toBe(404)
    await edited(ann, post.id, { content: `secret for @${fay.username}` })
    expect((await postPage(eve, post.id)).statusCode).toBe(404)
    expect((await history(eve, post.id)).statusCode).toBe(404)
    expect(await mentionItems(eve, post.id)).toHaveLength(0)
    expect((await postPage(fay, post.id)).statusCode).toBe(200)
    expect(await mentionItems(fay, post.id)).toHaveLength(1)
  })

  it('hashtag counts and search find the new text and no longer the old', async () => {
    const [oldTag, newTag, oldWord, newWord] = [word(), word(), word(), word()]
    const post = await publish(t.app, ann.token, `${oldWord} #${oldTag}`)
    // Read first, so the caches hold the old answers.
    expect(await search(bob, oldWord)).toEqual([post.id])
    expect(await search(bob, newWord)).toEqual([])
    expect(await search(bob, `#${oldTag}`)).toEqual([post.id])
    const count = async (tag: string) => {
      const res = await api(t.app, 'GET', `/api/hashtags/search?q=${tag}`, { token: bob.token })
      return res.json<Schemas['HashtagsPage']>().hashtags.find((h) => h.hashtag === tag)?.count ?? 0
    }
    expect([await count(oldTag), await count(newTag)]).toEqual([1, 0])

    const after = await edited(ann, post.id, { content: `${newWord} #${newTag}` })
    expect(after.hashtags).toEqual([newTag])
    expect(await search(bob, oldWord)).toEqual([])
    expect(await search(bob, newWord)).toEqual([post.id])
    expect(await search(bob, `#${oldTag}`)).toEqual([])
    expect(await search(bob, `#${newTag}`)).toEqual([post.id])
    expect([await count(oldTag), await count(newTag)]).toEqual([0, 1])
    // A narrower audience leaves the public count.
    await edited(ann, post.id, { visibility: 'followers' })
    expect(await count(newTag)).toBe(0)
  })

  it('a narrowed public reply leaves its parent public reply count; replies keep pointing at the post', async () => {
    const parent = await publish(t.app, bob.token, 'parent')
    const reply = await publish(t.app, ann.token, 'a reply', { replyTo: parent.id })
    const under = await publish(t.app, cat.token, 'reply to the reply', { replyTo: reply.id })
    expect((await postPage(cat, parent.id)).json<Schemas['PostDetailResponse']>().post.replyCount).toBe(1)
    await edited(ann, reply.id, { content: 'a reply, edited', visibility: 'mentioned' })
    expect((await postPage(cat, parent.id)).json<Schemas['PostDetailResponse']>().post.replyCount).toBe(0)
    const own = (await postPage(ann, reply.id)).json<Schemas['PostDetailResponse']>()
    expect(own.post.replyTo).toBe(parent.id)
    expect(own.replies.map((r) => r.id)).toEqual([under.id])
  })
})
