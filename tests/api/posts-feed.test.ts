import { beforeAll, describe, expect, it } from 'vitest'
import { posts as postsTable } from '../../server/db/schema-posts'
import { feedKeys } from '../../server/modules/posts/feed-queries'
import { feed, follow, type Member, publish, quickMember } from './content-helpers'
import { LIMITS } from '../../src/api/contract/limits'
import { api, type ErrorBody, useTestApp } from './harness'

const t = useTestApp()
let viewer: Member
let ann: Member
let bob: Member
let stranger: Member

beforeAll(async () => {
  ;[viewer, ann, bob, stranger] = await Promise.all([
    quickMember(t.app, 'viewer'),
    quickMember(t.app, 'ann'),
    quickMember(t.app, 'bob'),
    quickMember(t.app, 'stranger'),
  ])
  await follow(t.app, viewer, ann)
  await follow(t.app, viewer, bob)
})

const repost = async (who: Member, postId: string) => {
  const res = await api(t.app, 'POST', `/api/posts/${postId}/repost`, { token: who.token })
  expect(res.statusCode).toBe(200)
}

/** Content and reposter of a feed page, for readable assertions. */
const summary = (posts: Array<{ content: string; repostedBy: { username: string } | null }>) =>
  posts.map((p) => (p.repostedBy ? `${p.content} (via ${p.repostedBy.username})` : p.content))

describe('GET /posts/feed', () => {
  it("holds the viewer's own posts and their followees' posts, newest first, and nobody else's", async () => {
    await publish(t.app, ann.token, 'ann 1')
    await publish(t.app, stranger.token, 'stranger 1')
    await publish(t.app, bob.token, 'bob 1')
    await publish(t.app, viewer.token, 'viewer 1')
    const { posts } = await feed(t.app, viewer.token)
    expect(summary(posts)).toEqual(['viewer 1', 'bob 1', 'ann 1'])
    expect(posts.every((p) => p.repostedBy === null)).toBe(true)
  })

  it('shows reposts by followees with repostedBy, once, at the earliest repost', async () => {
    const strangers = await publish(t.app, stranger.token, 'stranger 2')
    await repost(ann, strangers.id)
    let { posts } = await feed(t.app, viewer.token)
    expect(summary(posts)[0]).toBe(`stranger 2 (via ${ann.username})`)
    expect(posts[0]?.repostedBy).toMatchObject({ id: ann.id, username: ann.username })

    // A later repost by another followee does not move it or show it twice.
    await publish(t.app, bob.token, 'bob 2')
    await repost(bob, strangers.id)
    ;({ posts } = await feed(t.app, viewer.token))
    expect(summary(posts).slice(0, 2)).toEqual(['bob 2', `stranger 2 (via ${ann.username})`])
    expect(posts.filter((p) => p.id === strangers.id)).toHaveLength(1)
  })

  it("ignores reposts of posts that are already there (a followee's or the viewer's own)", async () => {
    const bobs = await publish(t.app, bob.token, 'bob 3')
    await publish(t.app, ann.token, 'ann 3')
    await repost(ann, bobs.id)
    const { posts } = await feed(t.app, viewer.token)
    expect(summary(posts).slice(0, 2)).toEqual(['ann 3', 'bob 3'])
  })

  it("shows replies to the viewer or to followees and the viewer's own, not followees' replies to strangers", async () => {
    const annPost = await publish(t.app, ann.token, 'ann asks')
    const strangerPost = await publish(t.app, stranger.token, 'stranger asks')
    await publish(t.app, bob.token, 'bob answers ann', { replyTo: annPost.id })
    await publish(t.app, bob.token, 'bob answers stranger', { replyTo: strangerPost.id })
    await publish(t.app, viewer.token, 'viewer answers stranger', { replyTo: strangerPost.id })
    const { posts } = await feed(t.app, viewer.token)
    const contents = posts.map((p) => p.content)
    expect(contents).toContain('bob answers ann')
    expect(contents).toContain('viewer answers stranger')
    expect(contents).not.toContain('bob answers stranger')
    expect(contents).not.toContain('stranger asks')
  })

  it('pages with a keyset cursor with no duplicates and no gaps while new posts arrive', async () => {
    const writer = await quickMember(t.app, 'writer')
    const reader = await quickMember(t.app, 'reader')
    await follow(t.app, reader, writer)
    // 45 older posts straight into the table (publishing them one by one would only slow the test down).
    const start = Date.now() - 3_600_000
    const rows = await t.app.services.db
      .insert(postsTable)
      .values(Array.from({ length: 45 }, (_, i) => ({ authorId: writer.id, content: `w${i}`, createdAt: new Date(start + i * 1000) })))
      .returning({ id: postsTable.id })
    const written = rows.map((r) => r.id)

    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page = await feed(t.app, reader.token, cursor ? `?cursor=${encodeURIComponent(cursor)}` : '')
      expect(page.posts.length).toBeLessThanOrEqual(20)
      seen.push(...page.posts.map((p) => p.id))
      cursor = page.nextCursor
      pages += 1
      // New posts keep arriving between pages: they belong above the first page, never inside later ones.
      await publish(t.app, writer.token, `new after page ${pages}`)
    } while (cursor && pages < 10)

    expect(pages).toBe(3)
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen).toEqual([...written].reverse())
    const fresh = await feed(t.app, reader.token)
    expect(fresh.posts[0]?.content).toBe('new after page 3')
  })

  it('accepts page/limit as well, and refuses a cursor it did not make', async () => {
    const firstTen = await feed(t.app, viewer.token, '?limit=10')
    expect(firstTen.posts.length).toBeGreaterThan(8)
    const secondPage = await feed(t.app, viewer.token, '?page=2&limit=4')
    expect(secondPage.posts.map((p) => p.id)).toEqual(firstTen.posts.slice(4, 8).map((p) => p.id))
    expect(secondPage.nextCursor).not.toBeNull()

    for (const cursor of ['garbage', Buffer.from('["1","x"]').toString('base64url')]) {
      const res = await api(t.app, 'GET', `/api/posts/feed?cursor=${cursor}`, { token: viewer.token })
      expect(res.statusCode).toBe(400)
      expect((res.json() as ErrorBody).error).toBe('Invalid cursor')
    }
    const anonymous = await api(t.app, 'GET', '/api/posts/feed')
    expect(anonymous.statusCode).toBe(401)
  })

  it('refuses a cursor whose time is out of any real range (400, never 500)', async () => {
    const id = '01234567-89ab-cdef-0123-456789abcdef'
    // 20 digits overflow a bigint; 19 digits fit one but not a timestamp; the year 10000 is past what we ever store.
    for (const at of ['99999999999999999999', '-99999999999999999999', '9223372036854775807', '253402300800000000']) {
      const cursor = Buffer.from(JSON.stringify([at, id])).toString('base64url')
      const res = await api(t.app, 'GET', `/api/posts/feed?cursor=${cursor}`, { token: viewer.token })
      expect(res.statusCode, at).toBe(400)
      expect((res.json() as ErrorBody).error, at).toBe('Invalid cursor')
    }
    // A time far in the past or future but real still reads a page.
    for (const at of ['0', '253402300799999999']) {
      const cursor = Buffer.from(JSON.stringify([at, id])).toString('base64url')
      const res = await api(t.app, 'GET', `/api/posts/feed?cursor=${cursor}`, { token: viewer.token })
      expect(res.statusCode, at).toBe(200)
    }
  })

  it('reads pages up to the first 1,000 items by offset and points deeper readers to the cursor (400)', async () => {
    const atBound = await api(t.app, 'GET', `/api/posts/feed?page=${LIMITS.offsetItemsMax / 20}&limit=20`, {
      token: viewer.token,
    })
    expect(atBound.statusCode).toBe(200)
    for (const query of [`page=${LIMITS.offsetItemsMax / 20 + 1}&limit=20`, 'page=11&limit=100', 'page=1000&limit=2']) {
      const res = await api(t.app, 'GET', `/api/posts/feed?${query}`, { token: viewer.token })
      expect(res.statusCode, query).toBe(400)
      expect((res.json() as ErrorBody).error, query).toBe(
        'Pages past the first 1,000 items are read with the cursor: pass nextCursor',
      )
    }
  })

  it('answers the same items with either plan (per-followee and global scan with fallback)', async () => {
    const db = t.app.services.db
    for (const n of [3, 8, 60]) {
      const perSource = await feedKeys(db, viewer.id, undefined, n, 'per-source')
      const scan = await feedKeys(db, viewer.id, undefined, n, 'scan')
      expect(scan).toEqual(perSource)
      const last = perSource[perSource.length - 1]
      if (last) {
        const cursor = { at: last.at, id: last.post_id }
        expect(await feedKeys(db, viewer.id, cursor, n, 'scan')).toEqual(
          await feedKeys(db, viewer.id, cursor, n, 'per-source'),
        )
      }
    }
  })

  it('is empty for a member who follows nobody and has not posted', async () => {
    const loner = await quickMember(t.app, 'loner')
    expect(await feed(t.app, loner.token)).toEqual({ posts: [], nextCursor: null })
  })
})
