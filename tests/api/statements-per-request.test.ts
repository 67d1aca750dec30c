import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { field, follow, type Member, publish, quickMember, send } from './content-helpers'
import { api, buildTestApp, openTestDatabase, type TestDatabase } from './harness'
import { countStatements } from './statement-counter'
import { selectRows } from '../../server/db/rows'

/**
 * How many statements each request of a reader's session sends (docs/posts-and-feed.md, "Caches", has the numbers
 * before and after), and that the merged reads of a post page and a profile answer exactly as before: the same
 * requests on an app with caches on and one with caches off, on one database, give the same bodies.
 */

let database: TestDatabase
let on: FastifyInstance
let off: FastifyInstance
let viewer: Member
let ann: Member
let bob: Member
let priv: Member
let target = ''

beforeAll(async () => {
  database = await openTestDatabase()
  // About the caches themselves: on even when the suite runs with WREN_TEST_CACHES=off (tests/api/harness.ts).
  on = await buildTestApp(database, { caches: true })
  off = await buildTestApp(database, { caches: false })
  viewer = await quickMember(on, 'viewer')
  ann = await quickMember(on, 'ann')
  bob = await quickMember(on, 'bob')
  priv = await quickMember(on, 'priv')
  await follow(on, viewer, ann)
  for (let i = 0; i < 90; i += 1) {
    const p = await publish(on, ann.token, `ann ${i}`)
    if (i === 80) target = p.id
  }
  for (let i = 0; i < 5; i += 1) await publish(on, viewer.token, `reply ${i}`, { replyTo: target })
  await publish(on, bob.token, 'a reply about turnips', { replyTo: target })
  await publish(on, bob.token, 'followers only', { visibility: 'followers' })
  await publish(on, ann.token, 'for followers', { visibility: 'followers', replyTo: target })
}, 120_000)

afterAll(async () => {
  await on?.close()
  await off?.close()
  await database?.close()
})

/**
 * Statements sent for one request: its own (not those of work an earlier request left running, such as a delayed
 * unread-count push), less the view-count flush, which runs on a timer, and the session touch.
 */
async function counted(app: FastifyInstance, who: Member, url: string): Promise<{ n: number; status: number; body: unknown }> {
  const counter = countStatements(database.handle.db)
  try {
    const res = await api(app, 'GET', url, { token: who.token })
    // The flush is two statements (server/modules/posts/views.ts): the posts' view counts, then today's per-post row.
    // A session's last-seen touch is written at most once a minute (tests/api/sessions.test.ts), so whether this
    // request carries it depends on when the minute turns, not on the request.
    const n = counter.of(String(res.headers['x-request-id'])).filter(
      (s) => !/^\s*(update posts|insert into post_daily_stats|update "sessions"( s)?\s+set "?last_seen_at)/i.test(s),
    ).length
    return { n, status: res.statusCode, body: res.statusCode === 200 ? res.json() : res.body }
  } finally {
    counter.stop()
  }
}

/** Bodies without view counts (batched; a list may show them up to a card's TTL late). */
const comparable = (body: unknown): unknown => JSON.parse(JSON.stringify(body), (k, v: unknown) => (k === 'views' ? 0 : v))

async function same(who: Member, url: string): Promise<unknown> {
  const cached = await counted(on, who, url)
  const fromDb = await counted(off, who, url)
  expect(cached.status, url).toBe(fromDb.status)
  expect(comparable(cached.body), url).toEqual(comparable(fromDb.body))
  return cached.body
}

const ok = async (method: 'POST' | 'DELETE' | 'PATCH', url: string, who: Member, body?: unknown) =>
  expect((await api(on, method, url, { token: who.token, ...(body === undefined ? {} : { body }) })).statusCode).toBeLessThan(300)

describe('statements per request', () => {
  it('a reader session: feed pages 1-4, a post page, a profile', async () => {
    const kinds: Array<[string, (cursor: string | null) => string]> = [
      ['feed page 1', () => '/api/posts/feed'],
      ['feed page 2', (c) => `/api/posts/feed?cursor=${c}`],
      ['feed page 3', (c) => `/api/posts/feed?cursor=${c}`],
      ['feed page 4', (c) => `/api/posts/feed?cursor=${c}`],
      ['post page', () => `/api/posts/${target}`],
      ['profile', () => `/api/users/${ann.username}`],
    ]
    const counts: Record<string, number[]> = {}
    for (const [name, app] of [['off', off], ['on', on]] as const) {
      let cursor: string | null = null
      for (const [kind, url] of kinds) {
        // Caches on: the second time is the warm case (the session, cards, authors, flags and timeline cached).
        const first = await counted(app, viewer, url(cursor))
        const again = await counted(app, viewer, url(cursor))
        expect(again.status).toBe(200)
        if (kind.startsWith('feed')) cursor = (again.body as { nextCursor: string }).nextCursor
        counts[`${name} ${kind}`] = [first.n, again.n]
      }
    }
    // Session, post page: session, the page statement (post, reply keys, mute notices), cards, flags, authors.
    expect(counts).toEqual({
      'off feed page 1': [6, 6],
      'off feed page 2': [5, 5],
      'off feed page 3': [5, 5],
      'off feed page 4': [5, 5],
      'off post page': [5, 5],
      'off profile': [6, 6],
      'on feed page 1': [expect.any(Number), 0],
      'on feed page 2': [expect.any(Number), 0],
      'on feed page 3': [expect.any(Number), 0],
      'on feed page 4': [expect.any(Number), 0],
      // The page statement, then the post's card and flags read fresh (its exact stored counts).
      'on post page': [3, 3],
      // The profile's head (member, block, follow, request, mute, posts count), then its post keys; the same again
      // from memory (users/profile-first-pages.ts).
      'on profile': [2, 0],
    })
  })

  it('a plain post: its rows in one statement, then its card and flags; a reply keeps its transaction', async () => {
    const post = async (parts: Array<ReturnType<typeof field>>) => {
      const counter = countStatements(database.handle.db)
      try {
        const res = await send(on, 'POST', '/api/posts', ann.token, parts)
        expect(res.statusCode).toBe(201)
        return counter.of(String(res.headers['x-request-id'])).map((s) => s.trim().split(/\s+/)[0]?.toLowerCase())
      } finally {
        counter.stop()
      }
    }
    // The rows (author's count, post, hashtags), then the card and the flags read in parallel.
    expect(await post([field('content', 'a walk, a book, #statements')])).toEqual(['with', 'select', 'select'])
    const tagCount = async () => {
      const [row] = await selectRows<{ post_count: number; public_post_count: number }>(
        database.handle.db,
        sql`select post_count, public_post_count from hashtags where tag = 'statements'`,
      )
      return row && [row.post_count, row.public_post_count]
    }
    // The tag's counters, kept by the tags' triggers, saw the post inserted in the same statement: the public count
    // reads the post's audience and its author's privacy from that post.
    expect(await tagCount()).toEqual([1, 1])
    // A reply locks and counts on its parent first, in a transaction around the same one statement of rows: the
    // parent, then its counter and its day's analytics, the rows, and the card and flags. (PGlite's begin and commit
    // do not pass the statement log; on PostgreSQL the plain post above shows it had none.)
    const reply = await post([field('content', 'a reply, #statements'), field('replyTo', target)])
    expect(reply.filter((s) => s !== 'begin' && s !== 'commit')).toEqual(['select', 'update', 'insert', 'with', 'select', 'select'])
    expect(await tagCount()).toEqual([2, 2])
  })

  it('post pages answer as before, caches on and off: mutes, keywords, replies hidden, paging, absent posts', async () => {
    await same(viewer, `/api/posts/${target}`)
    await same(bob, `/api/posts/${target}`)
    await same(ann, `/api/posts/${target}?limit=2`)
    const first = (await same(viewer, `/api/posts/${target}?limit=3`)) as { nextCursor: string }
    await same(viewer, `/api/posts/${target}?limit=3&cursor=${first.nextCursor}`)
    await same(viewer, `/api/posts/${target}?page=2&limit=2`)
    await ok('POST', '/api/mutes/keyword', viewer, { keyword: 'turnips' })
    await ok('POST', '/api/mutes/user', bob, { userId: ann.id })
    await same(viewer, `/api/posts/${target}`)
    await same(bob, `/api/posts/${target}`)
    await same(viewer, '/api/posts/00000000-0000-0000-0000-000000000000')
    await same(viewer, '/api/posts/not-an-id')
    await ok('POST', `/api/blocks/user/${viewer.id}`, ann)
    await same(viewer, `/api/posts/${target}`)
    await ok('DELETE', `/api/blocks/user/${viewer.id}`, ann)
    await follow(on, viewer, ann)
    await ok('DELETE', '/api/mutes/keyword/turnips', viewer)
    await ok('DELETE', `/api/mutes/user/${ann.id}`, bob)
  })

  it('profiles answer as before, caches on and off: own, followed, muted, requested, private, blocked, absent', async () => {
    for (const tab of ['posts', 'replies', 'media', 'likes']) {
      await same(viewer, `/api/users/${ann.username}?tab=${tab}`)
      await same(viewer, `/api/users/${viewer.username}?tab=${tab}`)
    }
    await same(viewer, `/api/users/${bob.username.toUpperCase()}`)
    await same(ann, `/api/users/${bob.username}`)
    await ok('POST', '/api/mutes/user', viewer, { userId: bob.id })
    await same(viewer, `/api/users/${bob.username}`)
    await ok('PATCH', '/api/users/profile', priv, { privateAccount: true })
    await same(viewer, `/api/users/${priv.username}`)
    await ok('POST', `/api/users/${priv.id}/follow`, viewer)
    await same(viewer, `/api/users/${priv.username}`)
    await ok('POST', `/api/blocks/user/${viewer.id}`, bob)
    await same(viewer, `/api/users/${bob.username}`)
    await same(bob, `/api/users/${viewer.username}`)
    await same(viewer, '/api/users/nobody_by_that_name')
  })
})
