import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { InvalidationBus } from '../../server/cache/invalidation'
import { RedisBus } from '../../server/cache/redis-bus'
import { uuidv7 } from '../../server/db/ids'
import type { Schemas } from '../../server/http/handler-types'
import { TOP_OVERLAP_MICROS } from '../../server/modules/posts/cache/timelines'
import { feedKeys } from '../../server/modules/posts/feed-queries'
import { eventually, MemoryHub } from './cache-support'
import { follow, type Member, publish, quickMember } from './content-helpers'
import { api, buildTestApp, openTestDatabase, type TestDatabase } from './harness'
import { countStatements } from './statement-counter'

/**
 * A followee's new post (or repost) keeps its followers' cached timelines: they are marked, and the next read reads
 * their top again with one bounded feed statement (docs/posts-and-feed.md, "Caches"). Every answer must still be
 * what the database gives: an app with caches on and one with them off, on one database, answer side by side; a
 * second app with caches on hears the first's invalidations (through Redis when REDIS_URL is set, else an in-memory
 * hub) as another process would.
 */

const redisUrl = process.env.REDIS_URL || undefined
let database: TestDatabase
let on: FastifyInstance
let off: FastifyInstance
let other: FastifyInstance
let reader: Member
let ann: Member
let bob: Member
let stranger: Member

async function bus(channel: string, hub: MemoryHub): Promise<InvalidationBus> {
  if (!redisUrl) return hub.endpoint()
  return RedisBus.connect(redisUrl, channel)
}

beforeAll(async () => {
  database = await openTestDatabase()
  const hub = new MemoryHub()
  const channel = `wren-test:${randomBytes(6).toString('hex')}`
  // About the caches themselves: on even when the suite runs with WREN_TEST_CACHES=off (tests/api/harness.ts).
  on = await buildTestApp(database, { caches: true, invalidationBus: await bus(channel, hub) })
  other = await buildTestApp(database, { caches: true, invalidationBus: await bus(channel, hub) })
  off = await buildTestApp(database, { caches: false })
  reader = await quickMember(on, 'reader')
  ann = await quickMember(on, 'ann')
  bob = await quickMember(on, 'bob')
  stranger = await quickMember(on, 'stranger')
  await follow(on, reader, ann)
  await follow(on, reader, bob)
  for (let i = 0; i < 12; i += 1) {
    await publish(on, ann.token, `ann ${i}`)
    if (i % 3 === 0) await publish(on, bob.token, `bob ${i}`)
    if (i % 4 === 0) await publish(on, stranger.token, `stranger ${i}`)
  }
}, 60_000)

afterAll(async () => {
  await on?.close()
  await other?.close()
  await off?.close()
  await database?.close()
})

type FeedResponse = Schemas['FeedResponse']

async function page(app: FastifyInstance, who: Member, query = ''): Promise<FeedResponse> {
  const res = await api(app, 'GET', `/api/posts/feed${query}`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as FeedResponse
}

/** What must be equal: everything but view counts (batched; a list may show them up to a card's TTL late). */
const comparable = (p: FeedResponse) => ({ nextCursor: p.nextCursor, posts: p.posts.map((post) => ({ ...post, views: 0 })) })

/** The feed statements a request sent: bounded below (a top read again) or not (a whole load); and the followee reads. */
interface Sent {
  page: FeedResponse
  bounded: number
  whole: number
  followees: number
}

async function pageCounted(app: FastifyInstance, who: Member, query = ''): Promise<Sent> {
  const counter = countStatements(database.handle.db)
  try {
    const p = await page(app, who, query)
    const feeds = counter.statements.filter((s) => s.includes('circle as materialized'))
    const bounded = feeds.filter((s) => /created_at >= \(timestamptz 'epoch'/.test(s)).length
    const followees = counter.statements.filter((s) => /select followee_id as id from follows/.test(s)).length
    return { page: p, bounded, whole: feeds.length - bounded, followees }
  } finally {
    counter.stop()
  }
}

/** Page 1 on the cached app equals the database's, and is returned with what it cost. */
async function pageOne(who: Member, query = ''): Promise<Sent> {
  const sent = await pageCounted(on, who, query)
  expect(comparable(sent.page)).toEqual(comparable(await page(off, who, query)))
  return sent
}

async function ok(method: 'POST' | 'DELETE', url: string, who: Member, body?: unknown): Promise<void> {
  const res = await api(on, method, url, { token: who.token, ...(body === undefined ? {} : { body }) })
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300)
}

const cached = (app: FastifyInstance, who: Member) => app.services.postCaches.timelines.get(who.id)?.value

/** The cached timeline's top key. */
function topOf(who: Member): { post_id: string; at: string } {
  const top = cached(on, who)?.keys[0]
  if (!top) throw new Error('no cached timeline')
  return top
}

/** A post by `author` stored as a transaction that began at `at` (cursor microseconds) and committed only now. */
async function committedLate(author: Member, content: string, at: bigint): Promise<string> {
  const id = uuidv7()
  await database.handle.db.execute(sql`insert into posts (id, author_id, content, created_at)
    values (${id}, ${author.id}, ${content}, timestamptz 'epoch' + ${at.toString()}::bigint * interval '1 microsecond')`)
  // What the posts service announces once its transaction has committed.
  await on.services.invalidations.emit({ kind: 'author-activity', authorId: author.id, added: true })
  return id
}

describe("a followee's new item keeps the cached timeline", () => {
  it("shows a followee's post on page 1 at once, with one bounded statement instead of a reload", async () => {
    await pageOne(reader)
    const p = await publish(on, ann.token, 'fresh from ann')
    expect(cached(on, reader)?.topStale).toBe(true)
    const sent = await pageOne(reader)
    expect(sent.page.posts[0]?.id).toBe(p.id)
    expect(sent).toMatchObject({ bounded: 1, whole: 0, followees: 0 })
    expect(cached(on, reader)?.topStale).toBeFalsy()
    // Read again: answered from memory.
    expect(await pageOne(reader)).toMatchObject({ bounded: 0, whole: 0, followees: 0 })
  })

  it('serves cursor pages and other page sizes from the refreshed keys, as the database does', async () => {
    await publish(on, bob.token, 'bob again')
    for (const query of ['?limit=3', '?limit=5']) {
      let sent = await pageOne(reader, query)
      while (sent.page.nextCursor) {
        const q = `${query}&cursor=${sent.page.nextCursor}`
        sent = await pageOne(reader, q)
        expect(sent.bounded + sent.whole).toBe(0)
      }
    }
  })

  it("shows the author's own post in their cached feed at once", async () => {
    await pageOne(ann)
    const p = await publish(on, ann.token, 'my own')
    const sent = await pageOne(ann)
    expect(sent.page.posts[0]?.id).toBe(p.id)
    expect(sent).toMatchObject({ bounded: 1, whole: 0 })
  })

  it('finds a post that committed after the top was read though it sorts below the top', async () => {
    await pageOne(reader)
    const top = topOf(reader)
    // Began a millisecond before the cached top item, committed after it was read: "newer than the top" misses it.
    const late = await committedLate(bob, 'late bob', BigInt(top.at) - 1_000n)
    const sent = await pageOne(reader)
    expect(sent).toMatchObject({ bounded: 1, whole: 0, followees: 0 })
    expect(sent.page.posts.map((p) => p.id).slice(0, 2)).toEqual([top.post_id, late])
  })

  it('finds one committed late near the edge of the overlap, and a later top after it', async () => {
    await pageOne(reader)
    const top = topOf(reader)
    const late = await committedLate(ann, 'late ann', BigInt(top.at) - TOP_OVERLAP_MICROS + 1_000n)
    const p = await publish(on, bob.token, 'on top of it')
    const sent = await pageOne(reader, '?limit=80')
    expect(sent).toMatchObject({ bounded: 1, whole: 0 })
    const ids = sent.page.posts.map((x) => x.id)
    expect(ids[0]).toBe(p.id)
    expect(ids).toContain(late)
  })

  it("prepends a followee's repost, and a second followee's repost of it changes nothing", async () => {
    const theirs = await publish(on, stranger.token, 'worth sharing')
    await pageOne(reader)
    await ok('POST', `/api/posts/${theirs.id}/repost`, bob)
    let sent = await pageOne(reader)
    expect(sent).toMatchObject({ bounded: 1, whole: 0 })
    expect(sent.page.posts[0]).toMatchObject({ id: theirs.id, repostedBy: { id: bob.id } })
    await ok('POST', `/api/posts/${theirs.id}/repost`, ann)
    sent = await pageOne(reader)
    expect(sent).toMatchObject({ bounded: 1, whole: 0 })
    expect(sent.page.posts.filter((p) => p.id === theirs.id)).toHaveLength(1)
    expect(sent.page.posts[0]).toMatchObject({ id: theirs.id, repostedBy: { id: bob.id } })
  })

  it('stays exact when followees repost and un-repost at once (one batch may hold both)', async () => {
    const theirs = await Promise.all([0, 1, 2, 3].map((i) => publish(on, stranger.token, `batch ${i}`)))
    await ok('POST', `/api/posts/${theirs[0]?.id}/repost`, ann)
    await ok('POST', `/api/posts/${theirs[1]?.id}/repost`, bob)
    await pageOne(reader)
    const flips = [
      [theirs[0], ann], // un-repost
      [theirs[2], ann],
      [theirs[1], bob], // un-repost
      [theirs[3], bob],
      [theirs[3], ann],
    ] as const
    const answers = await Promise.all(
      flips.map(([post, who]) => api(on, 'POST', `/api/posts/${post?.id}/repost`, { token: who.token })),
    )
    for (const res of answers) expect(res.statusCode, res.body).toBe(200)
    const ids = (await pageOne(reader)).page.posts.map((p) => p.id)
    expect(ids).not.toContain(theirs[0]?.id)
    expect(ids).not.toContain(theirs[1]?.id)
    expect(ids).toContain(theirs[2]?.id)
  })

  it("leaves out a followee's post the reader may not see (muted keyword), reading only the top", async () => {
    await ok('POST', '/api/mutes/keyword', reader, { keyword: 'turnips' })
    await pageOne(reader)
    const hidden = await publish(on, ann.token, 'all about turnips')
    const shown = await publish(on, ann.token, 'all about carrots')
    const sent = await pageOne(reader)
    expect(sent).toMatchObject({ bounded: 1, whole: 0 })
    expect(sent.page.posts[0]?.id).toBe(shown.id)
    expect(sent.page.posts.map((p) => p.id)).not.toContain(hidden.id)
    await ok('DELETE', '/api/mutes/keyword/turnips', reader)
  })
})

describe('everything else still drops the cached timeline', () => {
  it('a deletion of a listed post: the next page 1 loads it whole', async () => {
    const p = await publish(on, ann.token, 'to be deleted')
    await pageOne(reader)
    await ok('DELETE', `/api/posts/${p.id}`, ann)
    expect(cached(on, reader)).toBeUndefined()
    const sent = await pageOne(reader)
    expect(sent).toMatchObject({ bounded: 0, whole: 1, followees: 1 })
    expect(sent.page.posts.map((x) => x.id)).not.toContain(p.id)
  })

  it('a deletion while the top is stale: a post that is gone is never shown', async () => {
    await pageOne(reader)
    const p = await publish(on, bob.token, 'here and gone')
    await ok('DELETE', `/api/posts/${p.id}`, bob)
    const sent = await pageOne(reader)
    expect(sent.page.posts.map((x) => x.id)).not.toContain(p.id)
  })

  it('a block by a followee: dropped, and their posts are gone from page 1', async () => {
    await publish(on, bob.token, 'bob before the block')
    await pageOne(reader)
    await ok('POST', `/api/blocks/user/${reader.id}`, bob)
    expect(cached(on, reader)).toBeUndefined()
    const sent = await pageOne(reader)
    expect(sent).toMatchObject({ bounded: 0, whole: 1 })
    expect(sent.page.posts.some((p) => p.author.id === bob.id)).toBe(false)
    await ok('DELETE', `/api/blocks/user/${reader.id}`, bob)
    await follow(on, reader, bob)
  })

  it("a mute or an unfollow by the reader: dropped", async () => {
    await pageOne(reader)
    await ok('POST', '/api/mutes/user', reader, { userId: ann.id })
    expect(cached(on, reader)).toBeUndefined()
    expect(await pageOne(reader)).toMatchObject({ bounded: 0, whole: 1 })
    await ok('DELETE', `/api/mutes/user/${ann.id}`, reader)
    await pageOne(reader)
    await ok('DELETE', `/api/users/${bob.id}/follow`, reader)
    expect(cached(on, reader)).toBeUndefined()
    expect(await pageOne(reader)).toMatchObject({ bounded: 0, whole: 1 })
    await follow(on, reader, bob)
  })

  it("a followee's un-repost: dropped, and the post goes", async () => {
    const theirs = await publish(on, stranger.token, 'shared for a moment')
    await ok('POST', `/api/posts/${theirs.id}/repost`, ann)
    expect((await pageOne(reader)).page.posts[0]?.id).toBe(theirs.id)
    await ok('POST', `/api/posts/${theirs.id}/repost`, ann)
    expect(cached(on, reader)).toBeUndefined()
    const sent = await pageOne(reader)
    expect(sent).toMatchObject({ bounded: 0, whole: 1 })
    expect(sent.page.posts.map((p) => p.id)).not.toContain(theirs.id)
  })

  it('a followers-only post of an account that turns private or public: every timeline drops', async () => {
    await pageOne(reader)
    const res = await api(on, 'PATCH', '/api/users/profile', { token: ann.token, body: { privateAccount: true } })
    expect(res.statusCode, res.body).toBe(200)
    expect(cached(on, reader)).toBeUndefined()
    await pageOne(reader)
    expect((await api(on, 'PATCH', '/api/users/profile', { token: ann.token, body: { privateAccount: false } })).statusCode).toBe(200)
  })
})

describe('the bounded feed statement', () => {
  it('gives, in both plans, exactly the items the whole statement gives at or after its bound', async () => {
    const all = await feedKeys(database.handle.db, reader.id, undefined, 200, 'per-source')
    expect(all.length).toBeGreaterThan(10)
    expect(await feedKeys(database.handle.db, reader.id, undefined, 200, 'scan')).toEqual(all)
    for (const i of [0, 1, 5, all.length - 1]) {
      const since = all[i]?.at
      if (!since) throw new Error('no such key')
      const expected = all.filter((k) => BigInt(k.at) >= BigInt(since))
      for (const plan of ['per-source', 'scan'] as const) {
        expect(await feedKeys(database.handle.db, reader.id, undefined, 200, plan, { kind: 'home' }, since)).toEqual(expected)
        // Capped at n like the whole statement: the newest n of them.
        expect(await feedKeys(database.handle.db, reader.id, undefined, 2, plan, { kind: 'home' }, since)).toEqual(expected.slice(0, 2))
      }
    }
  })
})

/** Resolves once `other` has heard everything `on` announced before (one channel delivers in order). */
async function heardSoFar(): Promise<void> {
  const marker = uuidv7()
  const heard = new Promise<void>((resolve) => {
    other.services.invalidations.register({
      apply: (message) => {
        if (message.kind === 'member-changed' && message.userId === marker) resolve()
      },
    })
  })
  await on.services.invalidations.emit({ kind: 'member-changed', userId: marker })
  await heard
}

describe(`another process${redisUrl ? ' over Redis' : ' over an in-memory bus'}`, () => {
  it("keeps its cached timeline on a followee's post made here, and shows the post at once", async () => {
    // The earlier tests' messages (an account turning public drops every timeline) must not land after the fill.
    await heardSoFar()
    await page(other, reader)
    const p = await publish(on, ann.token, 'posted in the first process')
    await eventually(async () => expect(cached(other, reader)?.topStale).toBe(true))
    const sent = await pageCounted(other, reader)
    expect(sent).toMatchObject({ bounded: 1, whole: 0, followees: 0 })
    expect(sent.page.posts[0]?.id).toBe(p.id)
    expect(comparable(sent.page)).toEqual(comparable(await page(off, reader)))
  })

  it('drops it on a deletion made here', async () => {
    const p = await publish(on, ann.token, 'deleted in the first process')
    await eventually(async () => expect((await page(other, reader)).posts[0]?.id).toBe(p.id))
    await ok('DELETE', `/api/posts/${p.id}`, ann)
    await eventually(async () => expect(cached(other, reader)).toBeUndefined())
    expect((await page(other, reader)).posts.map((x) => x.id)).not.toContain(p.id)
  })
})
