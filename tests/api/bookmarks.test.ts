import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { LIMITS } from '../../src/api/contract/limits'
import { feed, follow, type Member, publish, quickMember } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// docs/product.md, "Bookmarks". Runs with the caches on and, in `npm test`'s second pass, off (WREN_TEST_CACHES=off).
const t = useTestApp()

type Res = { statusCode: number; body: string; json: () => unknown }
const errorOf = (res: Res) => (res.json() as ErrorBody).error
const expectStatus = (res: Res, status: number) => expect(res.statusCode, res.body).toBe(status)

const bookmark = (who: Member, postId: unknown) => api(t.app, 'POST', '/api/bookmarks', { token: who.token, body: { postId } })
const unbookmark = (who: Member, id: string) => api(t.app, 'DELETE', `/api/bookmarks/${id}`, { token: who.token })
const bookmarksOf = async (who: Member, query = '') => {
  const res = await api(t.app, 'GET', `/api/bookmarks${query}`, { token: who.token })
  expectStatus(res, 200)
  return res.json() as Schemas['BookmarksPage']
}
const savedContents = async (who: Member, query = '') => (await bookmarksOf(who, query)).bookmarks.map((b) => b.post.content)
const save = async (who: Member, postId: string) => {
  const res = await bookmark(who, postId)
  expectStatus(res, 201)
  return (res.json() as Schemas['BookmarkResponse']).bookmark
}
const createCollection = (who: Member, body: unknown) =>
  api(t.app, 'POST', '/api/bookmarks/collections', { token: who.token, body })
const newCollection = async (who: Member, name: string, extra: Record<string, unknown> = {}) => {
  const res = await createCollection(who, { name, ...extra })
  expectStatus(res, 201)
  return (res.json() as Schemas['CollectionResponse']).collection
}
const editCollection = (who: Member, id: string, body: unknown) =>
  api(t.app, 'PATCH', `/api/bookmarks/collections/${id}`, { token: who.token, body })
const collectionsOf = async (who: Member, query = '') => {
  const res = await api(t.app, 'GET', `/api/bookmarks/collections${query}`, { token: who.token })
  expectStatus(res, 200)
  return res.json() as Schemas['CollectionsPage']
}
const file = (who: Member, collectionId: string, postId: unknown) =>
  api(t.app, 'POST', `/api/bookmarks/collections/${collectionId}/posts`, { token: who.token, body: { postId } })
const unfile = (who: Member, collectionId: string, postId: string) =>
  api(t.app, 'DELETE', `/api/bookmarks/collections/${collectionId}/posts/${postId}`, { token: who.token })
const postPage = (who: Member, id: string) => api(t.app, 'GET', `/api/posts/${id}`, { token: who.token })
const block = (who: Member, other: Member) => api(t.app, 'POST', `/api/blocks/user/${other.id}`, { token: who.token })
const unblock = (who: Member, other: Member) => api(t.app, 'DELETE', `/api/blocks/user/${other.id}`, { token: who.token })
const countOf = async (who: Member, collectionId: string) =>
  (await collectionsOf(who, '?limit=100')).collections.find((c) => c.id === collectionId)?.postCount

describe('bookmarking a post', () => {
  let ann: Member
  let bob: Member
  beforeAll(async () => {
    ;[ann, bob] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob')]
  })

  it('saves a post once: the second time is 409, and the post says bookmarked to its saver only', async () => {
    const post = await publish(t.app, bob.token, 'worth keeping')
    expect(post.bookmarked).toBe(false)
    const saved = await save(ann, post.id)
    expect(saved.post.id).toBe(post.id)
    expect(saved.post.bookmarked).toBe(true)
    expect(saved.collectionIds).toEqual([])
    const again = await bookmark(ann, post.id)
    expectStatus(again, 409)
    expect(errorOf(again)).toBe('Post already bookmarked')
    // The flag is the viewer's own, never shared through the card caches.
    const annPage = (await postPage(ann, post.id)).json() as Schemas['PostDetailResponse']
    expect(annPage.post.bookmarked).toBe(true)
    const bobPage = (await postPage(bob, post.id)).json() as Schemas['PostDetailResponse']
    expect(bobPage.post.bookmarked).toBe(false)
    await follow(t.app, ann, bob)
    const annFeed = await feed(t.app, ann.token)
    expect(annFeed.posts.find((p) => p.id === post.id)?.bookmarked).toBe(true)
    const bobFeed = await feed(t.app, bob.token)
    expect(bobFeed.posts.find((p) => p.id === post.id)?.bookmarked).toBe(false)
  })

  it('refuses a post one cannot see or that does not exist (404), bad bodies (400) and strangers (401)', async () => {
    const hidden = await publish(t.app, bob.token, 'followers only here', { visibility: 'mentioned' })
    const res = await bookmark(ann, hidden.id)
    expectStatus(res, 404)
    expect(errorOf(res)).toBe('Post not found')
    expectStatus(await bookmark(ann, randomUUID()), 404)
    expectStatus(await bookmark(ann, 'not-an-id'), 404)
    expectStatus(await api(t.app, 'POST', '/api/bookmarks', { token: ann.token, body: {} }), 400)
    expectStatus(await api(t.app, 'POST', '/api/bookmarks', { token: ann.token, body: { postId: hidden.id, x: 1 } }), 400)
    expectStatus(await api(t.app, 'POST', '/api/bookmarks', { body: { postId: hidden.id } }), 401)
    expectStatus(await api(t.app, 'GET', '/api/bookmarks'), 401)
    expectStatus(await api(t.app, 'GET', '/api/bookmarks/collections'), 401)
  })

  it('removes one\'s own bookmark (204) and nobody else\'s (404); the flag goes with it', async () => {
    const post = await publish(t.app, bob.token, 'to remove later')
    const saved = await save(ann, post.id)
    const theirs = await unbookmark(bob, saved.id)
    expectStatus(theirs, 404)
    expect(errorOf(theirs)).toBe('Bookmark not found')
    expectStatus(await unbookmark(ann, saved.id), 204)
    expectStatus(await unbookmark(ann, saved.id), 404)
    expectStatus(await unbookmark(ann, 'nope'), 404)
    const page = (await postPage(ann, post.id)).json() as Schemas['PostDetailResponse']
    expect(page.post.bookmarked).toBe(false)
    expect(await savedContents(ann)).not.toContain('to remove later')
    // By the post's id (the card's button): only one's own.
    const again = await save(ann, post.id)
    expectStatus(await api(t.app, 'DELETE', `/api/bookmarks/posts/${post.id}`, { token: bob.token }), 404)
    expectStatus(await api(t.app, 'DELETE', `/api/bookmarks/posts/${post.id}`, { token: ann.token }), 204)
    expectStatus(await api(t.app, 'DELETE', `/api/bookmarks/posts/${post.id}`, { token: ann.token }), 404)
    expectStatus(await api(t.app, 'DELETE', '/api/bookmarks/posts/nope', { token: ann.token }), 404)
    expect(await savedContents(ann)).not.toContain('to remove later')
    expect(again.id).not.toBe(saved.id)
    // Saved again after removal: a new bookmark.
    expect((await save(ann, post.id)).id).not.toBe(saved.id)
  })
})

describe('the list of bookmarks', () => {
  it('is newest first, only the owner\'s, and pages by cursor with no gaps or duplicates', async () => {
    const [reader, writer, other] = [await quickMember(t.app, 'rd'), await quickMember(t.app, 'wr'), await quickMember(t.app, 'ot')]
    const posts = []
    for (let i = 0; i < 7; i += 1) posts.push(await publish(t.app, writer.token, `saved ${i}`))
    for (const post of posts) await save(reader, post.id)
    await save(other, posts[0]!.id)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const query: string = `?limit=3${cursor ? `&cursor=${cursor}` : ''}`
      const page = await bookmarksOf(reader, query)
      seen.push(...page.bookmarks.map((b) => b.post.content))
      cursor = page.nextCursor
      pages += 1
      // A bookmark made while paging lands on top, never in the pages still to come.
      if (pages === 1) await save(reader, (await publish(t.app, writer.token, 'saved meanwhile')).id)
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toEqual(['saved 6', 'saved 5', 'saved 4', 'saved 3', 'saved 2', 'saved 1', 'saved 0'])
    expect(await savedContents(other)).toEqual(['saved 0'])
    expect((await bookmarksOf(reader, '?page=2&limit=3')).bookmarks.map((b) => b.post.content)).toEqual([
      'saved 4',
      'saved 3',
      'saved 2',
    ])
    expectStatus(await api(t.app, 'GET', '/api/bookmarks?cursor=garbage', { token: reader.token }), 400)
    expectStatus(await api(t.app, 'GET', '/api/bookmarks?limit=0', { token: reader.token }), 400)
    expectStatus(await api(t.app, 'GET', `/api/bookmarks?limit=${LIMITS.pageSizeMax + 1}`, { token: reader.token }), 400)
  })

  it('drops a deleted post for good, and hides a post across a block or a private account until it is visible again', async () => {
    const [reader, author, locked] = [await quickMember(t.app, 'rd'), await quickMember(t.app, 'au'), await quickMember(t.app, 'lk')]
    const gone = await publish(t.app, author.token, 'will be deleted')
    const blocked = await publish(t.app, author.token, 'author blocks later')
    await follow(t.app, reader, locked)
    const privatePost = await publish(t.app, locked.token, 'locked account post')
    for (const p of [gone, blocked, privatePost]) await save(reader, p.id)
    expect(await savedContents(reader)).toEqual(['locked account post', 'author blocks later', 'will be deleted'])

    expectStatus(await api(t.app, 'DELETE', `/api/posts/${gone.id}`, { token: author.token }), 204)
    expect(await savedContents(reader)).toEqual(['locked account post', 'author blocks later'])

    // A block either way hides it; unblocking brings it back.
    expectStatus(await block(author, reader), 201)
    expect(await savedContents(reader)).toEqual(['locked account post'])
    expectStatus(await unblock(author, reader), 204)
    expect(await savedContents(reader)).toEqual(['locked account post', 'author blocks later'])
    expectStatus(await block(reader, author), 201)
    expect(await savedContents(reader)).toEqual(['locked account post'])
    expectStatus(await unblock(reader, author), 204)

    // A private account the reader no longer follows.
    expectStatus(await api(t.app, 'PATCH', '/api/users/profile', { token: locked.token, body: { privateAccount: true } }), 200)
    expect(await savedContents(reader)).toContain('locked account post')
    expectStatus(await api(t.app, 'DELETE', `/api/users/${locked.id}/follow`, { token: reader.token }), 200)
    expect(await savedContents(reader)).toEqual(['author blocks later'])
  })
})

describe('collections', () => {
  let ann: Member
  let bob: Member
  beforeAll(async () => {
    ;[ann, bob] = [await quickMember(t.app, 'ann'), await quickMember(t.app, 'bob')]
  })

  it('are created with a trimmed name (required, at most 50) and a description of at most 200', async () => {
    const made = await newCollection(ann, '  Recipes  ', { description: ' to cook ', isPrivate: true })
    expect(made).toMatchObject({ name: 'Recipes', description: 'to cook', isPrivate: true, postCount: 0 })
    expect(await newCollection(ann, 'x'.repeat(LIMITS.listNameMax))).toMatchObject({ description: '', isPrivate: false })
    const cases: Array<[unknown, string]> = [
      [{ name: '' }, 'Name is required'],
      [{ name: '   ' }, 'Name is required'],
      [{ name: 'x'.repeat(LIMITS.listNameMax + 1) }, 'Name must be at most 50 characters'],
      [{ name: 'ok', description: 'd'.repeat(LIMITS.listDescriptionMax + 1) }, 'Description must be at most 200 characters'],
    ]
    for (const [body, message] of cases) {
      const res = await createCollection(ann, body)
      expectStatus(res, 400)
      expect(errorOf(res)).toBe(message)
    }
    expectStatus(await createCollection(ann, {}), 400)
    expectStatus(await createCollection(ann, { name: 'ok', postCount: 5 }), 400)
    // Counted in characters: 50 emoji is a valid name.
    expect((await newCollection(ann, '📚'.repeat(LIMITS.listNameMax))).name).toBe('📚'.repeat(LIMITS.listNameMax))
  })

  it('are edited by their owner only; another member\'s id is 404 and stays unchanged', async () => {
    const mine = await newCollection(ann, 'Before')
    const res = await editCollection(ann, mine.id, { name: ' After ', description: 'new words' })
    expectStatus(res, 200)
    expect((res.json() as Schemas['CollectionResponse']).collection).toMatchObject({ name: 'After', description: 'new words' })
    const theirs = await editCollection(bob, mine.id, { name: 'Stolen' })
    expectStatus(theirs, 404)
    expect(errorOf(theirs)).toBe('Collection not found')
    expectStatus(await editCollection(ann, randomUUID(), { name: 'x' }), 404)
    expectStatus(await editCollection(ann, 'bad-id', { name: 'x' }), 404)
    expectStatus(await editCollection(ann, mine.id, {}), 400)
    expectStatus(await editCollection(ann, mine.id, { name: '  ' }), 400)
    expectStatus(await editCollection(ann, mine.id, { description: 'd'.repeat(201) }), 400)
    expect((await collectionsOf(ann, '?limit=100')).collections.find((c) => c.id === mine.id)?.name).toBe('After')
    expect((await collectionsOf(bob)).collections).toEqual([])
  })

  it('file bookmarked posts with an exact count, list them, and take them out again', async () => {
    const box = await newCollection(ann, 'Keep')
    const [p1, p2, p3] = [
      await publish(t.app, bob.token, 'first filed'),
      await publish(t.app, bob.token, 'second filed'),
      await publish(t.app, bob.token, 'never filed'),
    ]
    const b1 = await save(ann, p1.id)
    await save(ann, p3.id)
    const filed = await file(ann, box.id, p1.id)
    expectStatus(filed, 201)
    expect((filed.json() as Schemas['CollectionResponse']).collection.postCount).toBe(1)
    const twice = await file(ann, box.id, p1.id)
    expectStatus(twice, 409)
    expect(errorOf(twice)).toBe('This post is already in the collection')
    // Filing a post not yet saved bookmarks it too.
    expectStatus(await file(ann, box.id, p2.id), 201)
    expect(await savedContents(ann)).toEqual(expect.arrayContaining(['second filed']))
    expect(await savedContents(ann, `?collectionId=${box.id}`)).toEqual(['second filed', 'first filed'])
    expect(await countOf(ann, box.id)).toBe(2)
    const listed = await bookmarksOf(ann)
    expect(listed.bookmarks.find((b) => b.id === b1.id)?.collectionIds).toEqual([box.id])

    const out = await unfile(ann, box.id, p1.id)
    expectStatus(out, 200)
    expect((out.json() as Schemas['CollectionResponse']).collection.postCount).toBe(1)
    expectStatus(await unfile(ann, box.id, p1.id), 404)
    expect(errorOf(await unfile(ann, box.id, p3.id))).toBe('This post is not in the collection')
    // Still bookmarked, just not filed.
    expect(await savedContents(ann)).toContain('first filed')
    expect(await savedContents(ann, `?collectionId=${box.id}`)).toEqual(['second filed'])

    // Removing the bookmark takes it out of every collection.
    const b2 = (await bookmarksOf(ann)).bookmarks.find((b) => b.post.id === p2.id)!
    expectStatus(await unbookmark(ann, b2.id), 204)
    expect(await countOf(ann, box.id)).toBe(0)
    expect(await savedContents(ann, `?collectionId=${box.id}`)).toEqual([])
  })

  it('are the owner\'s alone: filing into, reading or emptying another member\'s is 404', async () => {
    const box = await newCollection(ann, 'Private box')
    const post = await publish(t.app, bob.token, 'filed by ann')
    expectStatus(await file(ann, box.id, post.id), 201)
    expectStatus(await file(bob, box.id, post.id), 404)
    expectStatus(await unfile(bob, box.id, post.id), 404)
    expectStatus(await api(t.app, 'GET', `/api/bookmarks?collectionId=${box.id}`, { token: bob.token }), 404)
    expectStatus(await api(t.app, 'GET', `/api/bookmarks?collectionId=${randomUUID()}`, { token: ann.token }), 404)
    expectStatus(await file(ann, randomUUID(), post.id), 404)
    expectStatus(await file(ann, box.id, randomUUID()), 404)
    expectStatus(await file(ann, box.id, 'x'), 404)
    expectStatus(await api(t.app, 'POST', `/api/bookmarks/collections/${box.id}/posts`, { token: ann.token, body: {} }), 400)
    expect(await countOf(ann, box.id)).toBe(1)
  })

  it('count and list only posts the owner may still see', async () => {
    const [owner, author] = [await quickMember(t.app, 'ow'), await quickMember(t.app, 'au')]
    const box = await newCollection(owner, 'Mixed')
    const [kept, gone, walled] = [
      await publish(t.app, author.token, 'kept'),
      await publish(t.app, author.token, 'gone'),
      await publish(t.app, (await quickMember(t.app, 'wl')).token, 'walled'),
    ]
    for (const p of [kept, gone, walled]) expectStatus(await file(owner, box.id, p.id), 201)
    expect(await countOf(owner, box.id)).toBe(3)
    expectStatus(await api(t.app, 'DELETE', `/api/posts/${gone.id}`, { token: author.token }), 204)
    const wall = walled.author
    expectStatus(await api(t.app, 'POST', `/api/blocks/user/${wall.id}`, { token: owner.token }), 201)
    expect(await countOf(owner, box.id)).toBe(1)
    expect(await savedContents(owner, `?collectionId=${box.id}`)).toEqual(['kept'])
  })

  it('keep postCount exact when the same post is filed many times at once', async () => {
    const [owner, author] = [await quickMember(t.app, 'cc'), await quickMember(t.app, 'ca')]
    const box = await newCollection(owner, 'Race')
    const post = await publish(t.app, author.token, 'raced')
    const answers = await Promise.all(Array.from({ length: 6 }, () => file(owner, box.id, post.id)))
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(1)
    expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(5)
    expect(await countOf(owner, box.id)).toBe(1)
    expect((await bookmarksOf(owner)).bookmarks).toHaveLength(1)
  })

  it('page newest first by cursor with no gaps or duplicates', async () => {
    const owner = await quickMember(t.app, 'pg')
    for (let i = 0; i < 5; i += 1) await newCollection(owner, `c${i}`)
    const names: string[] = []
    let cursor: string | null = null
    do {
      const page: Schemas['CollectionsPage'] = await collectionsOf(owner, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      names.push(...page.collections.map((c) => c.name))
      cursor = page.nextCursor
    } while (cursor)
    expect(names).toEqual(['c4', 'c3', 'c2', 'c1', 'c0'])
  })
})
