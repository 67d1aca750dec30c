import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { TIMELINE_ITEMS } from '../../server/modules/posts/cache/timelines'
import { follow, type Member, publish, quickMember } from './content-helpers'
import { api, buildTestApp, openTestDatabase, type TestDatabase } from './harness'
import { countStatements } from './statement-counter'

/**
 * Cursor pages of the home feed are answered from the cached timeline when it holds them (TimelineCache.keysAfter).
 * The cached keys are exact, so every page must be what the database gives: two apps on one database, one with its
 * caches on and one with them off, page through the same feeds side by side, with writes between pages.
 */

let database: TestDatabase
let on: FastifyInstance
let off: FastifyInstance
let viewer: Member
let ann: Member
let bob: Member
let cat: Member
let stranger: Member
const annPosts: string[] = []
const bobPosts: string[] = []
const strangerPosts: string[] = []

beforeAll(async () => {
  database = await openTestDatabase()
  // About the caches themselves: on even when the suite runs with WREN_TEST_CACHES=off (tests/api/harness.ts).
  on = await buildTestApp(database, { caches: true })
  off = await buildTestApp(database, { caches: false })
  viewer = await quickMember(on, 'viewer')
  ann = await quickMember(on, 'ann')
  bob = await quickMember(on, 'bob')
  cat = await quickMember(on, 'cat')
  stranger = await quickMember(on, 'stranger')
  for (const followee of [ann, bob, cat]) await follow(on, viewer, followee)
  // More items than a cached timeline holds, so pages come from the cache and from the database.
  for (let i = 0; i < 40; i += 1) {
    annPosts.push((await publish(on, ann.token, `ann ${i}`)).id)
    bobPosts.push((await publish(on, bob.token, `bob ${i}`)).id)
    if (i % 4 === 0) strangerPosts.push((await publish(on, stranger.token, `stranger ${i}`)).id)
    if (i % 8 === 0) await publish(on, viewer.token, `viewer ${i}`)
    if (i % 5 === 0) await publish(on, cat.token, `cat ${i}`)
  }
  // Strangers' posts come in through followees' reposts (the earliest one is the item).
  for (const id of strangerPosts) await reposted(cat, id)
  for (const id of strangerPosts.slice(0, 3)) await reposted(bob, id)
}, 120_000)

afterAll(async () => {
  await on?.close()
  await off?.close()
  await database?.close()
})

async function reposted(who: Member, id: string): Promise<void> {
  expect((await api(on, 'POST', `/api/posts/${id}/repost`, { token: who.token })).statusCode).toBe(200)
}

/** A write between pages: any 2xx. */
async function ok(method: 'POST' | 'DELETE', url: string, who: Member, body?: unknown): Promise<void> {
  const res = await api(on, method, url, { token: who.token, ...(body === undefined ? {} : { body }) })
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300)
}

type FeedResponse = Schemas['FeedResponse']

/** What must be equal: everything but view counts (batched; a list may show them up to a card's TTL late). */
const comparable = (page: FeedResponse) => ({
  nextCursor: page.nextCursor,
  posts: page.posts.map((p) => ({ ...p, views: 0 })),
})

async function page(
  app: FastifyInstance,
  who: Member,
  cursor: string | null,
  limit: number,
  path = '/api/posts/feed',
): Promise<FeedResponse> {
  const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) })
  const res = await api(app, 'GET', `${path}?${query.toString()}`, { token: who.token })
  expect(res.statusCode).toBe(200)
  return res.json() as FeedResponse
}

/**
 * Pages through `who`'s feed on both apps side by side, checking each page is the same; `between(n)` runs after
 * page n (1-based) is read. Returns the ids seen, in order.
 */
async function pageThrough(
  who: Member,
  limit: number,
  between: (n: number) => Promise<void> = async () => undefined,
  path = '/api/posts/feed',
): Promise<string[]> {
  const seen: string[] = []
  let cursor: string | null = null
  for (let n = 1; n <= 1000; n += 1) {
    const cached = await page(on, who, cursor, limit, path)
    const fromDb = await page(off, who, cursor, limit, path)
    expect(comparable(cached), `page ${n}`).toEqual(comparable(fromDb))
    seen.push(...cached.posts.map((p) => p.id))
    cursor = cached.nextCursor
    if (!cursor) return seen
    await between(n)
  }
  throw new Error('the feed did not end')
}

/** Reads page 1 on the cached app, which reloads its timeline: later cursor pages come from the new one. */
const refill = async (who: Member) => void (await page(on, who, null, 20))

const feedStatements = (statements: readonly string[]) =>
  statements.filter((s) => s.includes('circle as materialized'))

describe('cursor pages from the cached timeline', () => {
  it('pages through a long feed exactly as the database does, at several page sizes', async () => {
    for (const limit of [20, 7, 3, 40, 100]) {
      const seen = await pageThrough(viewer, limit)
      expect(new Set(seen).size).toBe(seen.length)
      expect(seen.length).toBeGreaterThan(TIMELINE_ITEMS)
    }
  }, 180_000)

  it('serves cursor pages within the cached keys without a feed statement', async () => {
    const first = await page(on, viewer, null, 20)
    const counter = countStatements(database.handle.db)
    try {
      let cursor = first.nextCursor
      for (let n = 2; n <= 4 && cursor; n += 1) cursor = (await page(on, viewer, cursor, 20)).nextCursor
      expect(feedStatements(counter.statements)).toEqual([])
      // Page 5 needs keys past the cached ones (81 = 4 pages + 1): the database answers.
      await page(on, viewer, cursor, 20)
      expect(feedStatements(counter.statements)).toHaveLength(1)
    } finally {
      counter.stop()
    }
  })

  it('a short feed is cached whole: its last page comes from the cache too', async () => {
    const loner = await quickMember(on, 'loner')
    for (let i = 0; i < 5; i += 1) await publish(on, loner.token, `loner ${i}`)
    const first = await page(on, loner, null, 2)
    const counter = countStatements(database.handle.db)
    try {
      const second = await page(on, loner, first.nextCursor, 2)
      const third = await page(on, loner, second.nextCursor, 2)
      expect(third.posts.map((p) => p.content)).toEqual(['loner 0'])
      expect(third.nextCursor).toBeNull()
      expect(feedStatements(counter.statements)).toEqual([])
    } finally {
      counter.stop()
    }
    await pageThrough(loner, 2)
  })

  it('stays exact when a followee posts between pages', async () => {
    const seen = await pageThrough(viewer, 20, async (n) => {
      if (n <= 3) await publish(on, ann.token, `new between pages ${n}`)
      if (n === 2 || n === 3) await refill(viewer)
    })
    expect(new Set(seen).size).toBe(seen.length)
  })

  it('stays exact when a post further down is deleted between pages', async () => {
    const inCache = annPosts[annPosts.length - 25]
    const below = bobPosts[3]
    const later = annPosts[annPosts.length - 30]
    if (!inCache || !below || !later) throw new Error('no such post')
    const seen = await pageThrough(viewer, 20, async (n) => {
      if (n === 1) {
        // One on page 3 of the feed (within the cached keys), one far below them.
        await ok('DELETE', `/api/posts/${inCache}`, ann)
        await ok('DELETE', `/api/posts/${below}`, bob)
      }
      if (n === 2) {
        await refill(viewer)
        await ok('DELETE', `/api/posts/${later}`, ann)
        await refill(viewer)
      }
    })
    expect(seen).not.toContain(inCache)
    expect(seen).not.toContain(below)
    expect(seen).not.toContain(later)
  })

  it('stays exact when a repost or a reposted post goes between pages', async () => {
    await pageThrough(viewer, 20, async (n) => {
      if (n === 1) await ok('POST', `/api/posts/${strangerPosts[8]}/repost`, cat) // a toggle: un-reposts
      if (n === 2) {
        await ok('DELETE', `/api/posts/${strangerPosts[9]}`, stranger)
        await refill(viewer)
      }
    })
  })

  it('stays exact when the viewer mutes a followee between pages, and unmutes', async () => {
    await pageThrough(viewer, 20, async (n) => {
      if (n === 1) {
        await ok('POST', '/api/mutes/user', viewer, { userId: bob.id })
        await refill(viewer)
      }
      if (n === 3) await ok('DELETE', `/api/mutes/user/${bob.id}`, viewer)
    })
  })

  it('stays exact when a keyword is muted between pages', async () => {
    await pageThrough(viewer, 20, async (n) => {
      if (n === 1) await ok('POST', '/api/mutes/keyword', viewer, { keyword: 'cat' })
    })
    await ok('DELETE', '/api/mutes/keyword/cat', viewer)
  })

  it('stays exact when a followee blocks the viewer between pages, and unblocks', async () => {
    await pageThrough(viewer, 20, async (n) => {
      if (n === 2) {
        await ok('POST', `/api/blocks/user/${viewer.id}`, bob)
        await refill(viewer)
      }
    })
    await ok('DELETE', `/api/blocks/user/${viewer.id}`, bob)
    await pageThrough(viewer, 20)
  })

  it('stays exact when the viewer blocks a reposter between pages', async () => {
    await pageThrough(viewer, 20, async (n) => {
      if (n === 1) await ok('POST', `/api/blocks/user/${stranger.id}`, viewer)
    })
  })

  it('stays exact when the viewer unfollows and follows between pages', async () => {
    await pageThrough(viewer, 20, async (n) => {
      if (n === 1) {
        await ok('DELETE', `/api/users/${ann.id}/follow`, viewer)
        await refill(viewer)
      }
      if (n === 2) await follow(on, viewer, bob)
    })
    await follow(on, viewer, ann)
    await pageThrough(viewer, 20, async (n) => {
      if (n === 2) await ok('DELETE', `/api/users/${cat.id}/follow`, viewer)
    })
  })
  it('pages a list timeline exactly as the database does, with a post and a deletion between pages', async () => {
    const res = await api(on, 'POST', '/api/lists', { token: viewer.token, body: { name: 'cached pages' } })
    expect(res.statusCode).toBe(201)
    const listId = (res.json() as Schemas['ListResponse']).list.id
    for (const member of [ann, cat]) await ok('POST', `/api/lists/${listId}/members`, viewer, { userId: member.id })
    const path = `/api/lists/${listId}/posts`
    const gone = annPosts[annPosts.length - 20]
    if (!gone) throw new Error('no such post')
    for (const limit of [20, 7]) expect((await pageThrough(viewer, limit, undefined, path)).length).toBeGreaterThan(40)
    const seen = await pageThrough(
      viewer,
      20,
      async (n) => {
        if (n === 1) await publish(on, ann.token, 'new in the list')
        if (n === 2) await page(on, viewer, null, 20, path)
        if (n === 3) {
          await ok('DELETE', `/api/posts/${gone}`, ann)
          await page(on, viewer, null, 20, path)
        }
      },
      path,
    )
    expect(new Set(seen).size).toBe(seen.length)
  }, 120_000)
})
