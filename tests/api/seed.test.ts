import { type SQL, sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../server/db/client'
import { DEMO_PASSWORD, runSeed, type SeedResult, SeedRefused, type SeedTarget } from '../../server/seed/run'
import { verifySeed } from '../../server/seed/verify'
import { api, useTestApp } from './harness'

/**
 * `npm run seed` on tiny numbers, on the file's database (PGlite, or a PostgreSQL schema when DATABASE_URL is set:
 * then the COPY path with index rebuild runs). Counters are checked here with our own SQL as well, not only with
 * the seed's built-in verification.
 */

const ctx = useTestApp()
const USERS = 30
const POSTS = 200
let client: pg.Client | undefined
let result: SeedResult

async function rows<T>(query: SQL): Promise<T[]> {
  const r: unknown = await ctx.database.handle.db.execute(query)
  return (r as { rows: T[] }).rows
}

async function count(query: SQL): Promise<number> {
  const [row] = await rows<{ n: number | string }>(query)
  return Number(row?.n)
}

/** PostgreSQL: a dedicated connection on the file's schema (COPY cannot go through the pool). */
async function targetFor(handle: DatabaseHandle): Promise<SeedTarget> {
  if (handle.kind === 'pglite') return { kind: 'pglite', db: handle.db }
  if (client) return { kind: 'postgres', client }
  const [row] = await rows<{ schema: string }>(sql`select current_schema() as schema`)
  client = new pg.Client({
    connectionString: process.env.DATABASE_URL,
    options: `-c search_path=${row?.schema},public`,
  })
  await client.connect()
  return { kind: 'postgres', client }
}

const YEAR_MS = 365 * 86_400_000
const seed = async (reset: boolean, now: number) =>
  runSeed(await targetFor(ctx.database.handle), { users: USERS, posts: POSTS, reset, now })

// Seeded ids come from server/db/ids.ts, which never goes back in time within a process (timed-ids.ts): the first
// seed is dated two years back so the --reset one (dated now) can follow it, and nothing else makes ids before.
beforeAll(async () => {
  result = await seed(false, Date.now() - 2 * YEAR_MS)
})

afterAll(async () => {
  await client?.end()
})

describe('seed', () => {
  it('writes the requested members and posts and verifies its own counters', async () => {
    expect(result.problems).toEqual([])
    expect(await count(sql`select count(*) as n from users`)).toBe(USERS)
    expect(await count(sql`select count(*) as n from posts`)).toBe(POSTS)
    expect(result.rows.posts).toBe(POSTS)
  })

  it('keeps every counter equal to the rows it counts', async () => {
    expect(await count(sql`select coalesce(sum(like_count), 0) as n from posts`)).toBe(
      await count(sql`select count(*) as n from likes`),
    )
    expect(await count(sql`select coalesce(sum(repost_count), 0) as n from posts`)).toBe(
      await count(sql`select count(*) as n from reposts`),
    )
    expect(await count(sql`select coalesce(sum(reply_count), 0) as n from posts`)).toBe(
      await count(sql`select count(*) as n from posts where reply_to is not null and visibility = 'public'`),
    )
    expect(await count(sql`select coalesce(sum(posts_count), 0) as n from users`)).toBe(POSTS)
    const followRows = await count(sql`select count(*) as n from follows`)
    expect(await count(sql`select coalesce(sum(following_count), 0) as n from users`)).toBe(followRows)
    expect(await count(sql`select coalesce(sum(followers_count), 0) as n from users`)).toBe(followRows)
    // Per member, not only in total.
    expect(
      await count(sql`select count(*) as n from users u
        where u.followers_count <> (select count(*) from follows f where f.followee_id = u.id)
           or u.following_count <> (select count(*) from follows f where f.follower_id = u.id)
           or u.posts_count <> (select count(*) from posts p where p.author_id = u.id)`),
    ).toBe(0)
    // Per hashtag: every post using it, and the posts anyone may see (public posts of public accounts), which is
    // what hashtag search shows.
    expect(
      await count(sql`select count(*) as n from hashtags h
        where h.post_count <> (select count(*) from post_hashtags ph where ph.tag = h.tag)
           or h.public_post_count <> (select count(*) from post_hashtags ph
                join posts p on p.id = ph.post_id join users u on u.id = p.author_id
                where ph.tag = h.tag and p.visibility = 'public' and not u.private_account)`),
    ).toBe(0)
    expect(await count(sql`select count(*) as n from hashtags where public_post_count > 0`)).toBeGreaterThan(0)
  })

  it('makes the known members follow the promised number of accounts', async () => {
    const following = async (username: string) =>
      count(sql`select count(*) as n from follows f join users u on u.id = f.follower_id where u.username = ${username}`)
    // 2,000 in a big network; everyone else in a network of 30.
    expect(await following('demo_reader')).toBe(USERS - 1)
    expect(await following('demo_casual')).toBe(20)
    const reader = result.members.find((m) => m.role === 'reader')
    expect(reader?.following).toBe(USERS - 1)
    expect(result.members.find((m) => m.role === 'casual')?.following).toBe(20)
  })

  it('stores mentions and hashtags that the post text names', async () => {
    const sample = await rows<{ content: string; tags: string[]; names: string[] }>(
      sql`select p.content,
            array(select h.tag from post_hashtags h where h.post_id = p.id) as tags,
            array(select u.username from post_mentions m join users u on u.id = m.user_id where m.post_id = p.id) as names
          from posts p order by p.created_at`,
    )
    for (const post of sample) {
      for (const tag of post.tags) expect(post.content.toLowerCase()).toContain(`#${tag}`)
      for (const name of post.names) expect(post.content).toContain(`@${name}`)
    }
  })

  it('gives ids that embed created_at, so id order is time order', async () => {
    const ordered = await rows<{ id: string }>(sql`select id from posts order by created_at, id`)
    const ids = ordered.map((r) => r.id)
    expect([...ids].sort()).toEqual(ids)
  })

  it('notices a counter that disagrees with its rows', async () => {
    const execute = async (query: SQL) => rows<unknown>(query)
    await ctx.database.handle.db.execute(
      sql`update posts set like_count = like_count + 1 where id = (select id from posts order by id limit 1)`,
    )
    expect(await verifySeed(execute)).toEqual([expect.stringContaining('postsLikeCount')])
  })

  it('notices a hashtag count of visible posts that disagrees with its rows', async () => {
    const execute = async (query: SQL) => rows<unknown>(query)
    await ctx.database.handle.db.execute(
      sql`update hashtags set public_post_count = public_post_count + 1
          where tag = (select tag from hashtags order by tag limit 1)`,
    )
    expect(await verifySeed(execute)).toContainEqual(expect.stringContaining('hashtagsPublicPostCount'))
  })

  it('refuses a non-empty database without --reset and replaces it with --reset', async () => {
    await expect(seed(false, Date.now())).rejects.toBeInstanceOf(SeedRefused)
    const again = await seed(true, Date.now())
    expect(again.problems).toEqual([])
    expect(await count(sql`select count(*) as n from users`)).toBe(USERS)
  })

  // Last: signing in makes a session id dated now (see beforeAll).
  it('lets a seeded member sign in with the printed password', async () => {
    const res = await api(ctx.app, 'POST', '/api/auth/login', { body: { username: 'demo_reader', password: DEMO_PASSWORD } })
    expect(res.statusCode).toBe(200)
  })
})
