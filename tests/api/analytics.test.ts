import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { uuidv7 } from '../../server/db/ids'
import type { Schemas } from '../../server/http/handler-types'
import { follow, type Member, publish, quickMember, quickMembers } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// docs/product.md, "Analytics": every number below is computed by hand from the fixture in beforeAll. Runs with the
// caches on and, in `npm test`'s second pass, off (WREN_TEST_CACHES=off); on PostgreSQL with DATABASE_URL.
const t = useTestApp()

type Range = '7d' | '30d' | '90d'
const DAY_MS = 86_400_000
/** The UTC date `k` days before today, as the server writes it. */
const dayAgo = (k: number) => new Date(Date.now() - k * DAY_MS).toISOString().slice(0, 10)
/** Noon UTC `k` days ago: safely inside that day. */
const noonAgo = (k: number) => `${dayAgo(k)}T12:00:00Z`

const get = async <T>(who: Member, path: string) => {
  const res = await api(t.app, 'GET', path, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as T
}
const userStats = async (who: Member, range?: Range) =>
  (await get<Schemas['UserAnalyticsResponse']>(who, `/api/analytics/user${range ? `?timeRange=${range}` : ''}`)).userStats
const engagement = (who: Member, range: Range) =>
  get<Schemas['EngagementAnalyticsResponse']>(who, `/api/analytics/engagement?timeRange=${range}`)
const trends = (who: Member, range: Range) =>
  get<Schemas['TrendAnalyticsResponse']>(who, `/api/analytics/trends?timeRange=${range}`)
const postStats = (who: Member, id: string, range: Range) =>
  get<Schemas['PostAnalyticsResponse']>(who, `/api/analytics/posts/${id}?timeRange=${range}`)
const like = async (who: Member, id: string) => {
  const res = await api(t.app, 'POST', `/api/posts/${id}/like`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
}
const repost = async (who: Member, id: string) => {
  const res = await api(t.app, 'POST', `/api/posts/${id}/repost`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
}
const view = async (who: Member, id: string) => {
  const res = await api(t.app, 'GET', `/api/posts/${id}`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
}
const remove = async (who: Member, id: string) => {
  const res = await api(t.app, 'DELETE', `/api/posts/${id}`, { token: who.token })
  expect(res.statusCode, res.body).toBe(204)
}
const exec = (query: ReturnType<typeof sql>) => t.app.services.db.execute(query)
const ids = (posts: ReadonlyArray<{ id: string }>) => posts.map((p) => p.id)

/**
 * The fixture. Ann writes four posts; Bob and Cid follow her, Dan writes his own.
 * - old40, 40 days ago: 8 views (before per-day views existed: they land on its day), liked by Bob and Cid that day.
 * - old10, 10 days ago: 20 views, liked by Bob and reposted by Cid that day; liked by Cid and publicly replied to by
 *   Bob 3 days ago.
 * Those are written straight into the tables, as an older database or the seed has them, and
 * rebuild_post_daily_stats() (migration `analytics`) makes their daily rows. Then, today, through the API:
 * - p1: liked by Bob and Cid, reposted by Cid, replied to publicly by Bob and for followers only by Cid (not counted:
 *   not public), viewed twice by Bob and once by Cid, and by Ann herself (not a view);
 * - p2 (published after p1): liked by Ann herself, liked then unliked by Bob, viewed once by Cid.
 */
describe('analytics numbers against a hand-computed fixture', () => {
  let ann: Member
  let bob: Member
  let cid: Member
  let dan: Member
  const old40 = uuidv7()
  const old10 = uuidv7()
  let p1: string
  let p2: string

  beforeAll(async () => {
    ;[ann, bob, cid, dan] = [
      await quickMember(t.app, 'ann'),
      await quickMember(t.app, 'bob'),
      await quickMember(t.app, 'cid'),
      await quickMember(t.app, 'dan'),
    ]
    await follow(t.app, bob, ann)
    await follow(t.app, cid, ann)
    await exec(sql`insert into posts (id, author_id, content, created_at, view_count) values
      (${old40}, ${ann.id}, 'forty days ago', ${noonAgo(40)}::timestamptz, 8),
      (${old10}, ${ann.id}, 'ten days ago', ${noonAgo(10)}::timestamptz, 20)`)
    await exec(sql`insert into likes (user_id, post_id, created_at) values
      (${bob.id}, ${old40}, ${noonAgo(40)}::timestamptz), (${cid.id}, ${old40}, ${noonAgo(40)}::timestamptz),
      (${bob.id}, ${old10}, ${noonAgo(10)}::timestamptz), (${cid.id}, ${old10}, ${noonAgo(3)}::timestamptz)`)
    await exec(sql`insert into reposts (user_id, post_id, created_at) values (${cid.id}, ${old10}, ${noonAgo(10)}::timestamptz)`)
    await exec(sql`insert into posts (id, author_id, content, created_at, reply_to, reply_to_author_id) values
      (${uuidv7()}, ${bob.id}, 'an old reply', ${noonAgo(3)}::timestamptz, ${old10}, ${ann.id})`)
    await exec(sql`select rebuild_post_daily_stats()`)

    p1 = (await publish(t.app, ann.token, 'Hello analytics')).id
    p2 = (await publish(t.app, ann.token, 'Second post')).id
    await like(bob, p1)
    await like(cid, p1)
    await repost(cid, p1)
    await publish(t.app, bob.token, 'a public reply', { replyTo: p1 })
    await publish(t.app, cid.token, 'a followers-only reply', { replyTo: p1, visibility: 'followers' })
    await like(ann, p2)
    await like(bob, p2)
    await like(bob, p2)
    const dans = (await publish(t.app, dan.token, 'not ann')).id
    await like(bob, dans)
    await view(bob, p1)
    await view(bob, p1)
    await view(cid, p1)
    await view(ann, p1)
    await view(cid, p2)
    await t.app.services.views.flush()
  })

  it('totals over 7, 30 (the default) and 90 days: posts, followers now, views, likes, replies, reposts, rate', async () => {
    expect(await userStats(ann, '7d')).toEqual({
      totalPosts: 2,
      totalFollowers: 2,
      totalViews: 4,
      totalLikes: 4,
      totalReplies: 2,
      totalReposts: 1,
      engagementRate: 7 / 4,
    })
    const thirty = {
      totalPosts: 3,
      totalFollowers: 2,
      totalViews: 24,
      totalLikes: 5,
      totalReplies: 2,
      totalReposts: 2,
      engagementRate: 9 / 24,
    }
    expect(await userStats(ann, '30d')).toEqual(thirty)
    expect(await userStats(ann)).toEqual(thirty)
    expect(await userStats(ann, '90d')).toEqual({
      totalPosts: 4,
      totalFollowers: 2,
      totalViews: 32,
      totalLikes: 7,
      totalReplies: 2,
      totalReposts: 2,
      engagementRate: 11 / 32,
    })
  })

  it('a member without views has an engagement rate of 0, and only their own numbers', async () => {
    const danStats = await userStats(dan, '7d')
    expect(danStats).toEqual({
      totalPosts: 1,
      totalFollowers: 0,
      totalViews: 0,
      totalLikes: 1,
      totalReplies: 0,
      totalReposts: 0,
      engagementRate: 0,
    })
  })

  it('top posts rank by likes + replies + reposts in the range, then views; recent posts are the newest', async () => {
    const week = await engagement(ann, '7d')
    expect(week.timeRange).toBe('7d')
    expect(ids(week.topPosts)).toEqual([p1, old10, p2])
    expect(week.topPosts[0]).toMatchObject({ content: 'Hello analytics', likes: 2, views: 3, replies: 1, reposts: 1 })
    // In the last 7 days old10 received only Cid's like and Bob's reply.
    expect(week.topPosts[1]).toMatchObject({ likes: 1, views: 0, replies: 1, reposts: 0 })
    expect(week.topPosts[2]).toMatchObject({ likes: 1, views: 1, replies: 0, reposts: 0 })
    expect(ids(week.recentPosts)).toEqual([p2, p1])

    const month = await engagement(ann, '30d')
    // p1 and old10 both received 4; old10 has more views.
    expect(ids(month.topPosts)).toEqual([old10, p1, p2])
    expect(month.topPosts[0]).toMatchObject({ likes: 2, views: 20, replies: 1, reposts: 1 })
    expect(ids(month.recentPosts)).toEqual([p2, p1, old10])

    const quarter = await engagement(ann, '90d')
    expect(ids(quarter.topPosts)).toEqual([old10, p1, old40, p2])
    expect(quarter.topPosts[2]).toMatchObject({ content: 'forty days ago', likes: 2, views: 8, replies: 0, reposts: 0 })
    expect(ids(quarter.recentPosts)).toEqual([p2, p1, old10, old40])
  })

  it('top and recent posts stop at 5', async () => {
    const eve = await quickMember(t.app, 'eve')
    const fans = await quickMembers(t.app, 2, 'fan')
    const posts: string[] = []
    for (let i = 0; i < 7; i += 1) posts.push((await publish(t.app, eve.token, `post ${i}`)).id)
    // Post i gets i likes from two fans at most; views separate the rest.
    for (const [i, id] of posts.entries()) {
      for (const fan of fans.slice(0, Math.min(i, 2))) await like(fan, id)
      for (let v = 0; v < i; v += 1) await view(fans[0] as Member, id)
    }
    await t.app.services.views.flush()
    const res = await engagement(eve, '7d')
    expect(ids(res.topPosts)).toEqual([posts[6], posts[5], posts[4], posts[3], posts[2]])
    expect(ids(res.recentPosts)).toEqual([posts[6], posts[5], posts[4], posts[3], posts[2]])
  })

  it('daily figures: one entry per day of the range, oldest first, zeros included', async () => {
    const week = await trends(ann, '7d')
    expect(week.dailyStats.map((d) => d.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map(dayAgo))
    expect(week.dailyStats).toEqual([
      { date: dayAgo(6), posts: 0, likes: 0, views: 0 },
      { date: dayAgo(5), posts: 0, likes: 0, views: 0 },
      { date: dayAgo(4), posts: 0, likes: 0, views: 0 },
      { date: dayAgo(3), posts: 0, likes: 1, views: 0 },
      { date: dayAgo(2), posts: 0, likes: 0, views: 0 },
      { date: dayAgo(1), posts: 0, likes: 0, views: 0 },
      { date: dayAgo(0), posts: 2, likes: 3, views: 4 },
    ])
    const month = await trends(ann, '30d')
    expect(month.dailyStats).toHaveLength(30)
    expect(month.dailyStats[0]?.date).toBe(dayAgo(29))
    expect(month.dailyStats[19]).toEqual({ date: dayAgo(10), posts: 1, likes: 1, views: 20 })
    const quarter = await trends(ann, '90d')
    expect(quarter.dailyStats).toHaveLength(90)
    expect(quarter.dailyStats[49]).toEqual({ date: dayAgo(40), posts: 1, likes: 2, views: 8 })
    expect(quarter.dailyStats.reduce((n, d) => n + d.views, 0)).toBe(32)
  })

  it("one post's numbers and days; its author only (403), hidden or missing posts 404", async () => {
    const week = await postStats(ann, p1, '7d')
    expect(week.post).toMatchObject({ id: p1, content: 'Hello analytics', likes: 2, views: 3, replies: 1, reposts: 1 })
    expect(week.engagementRate).toBeCloseTo(4 / 3)
    expect(week.dailyStats).toHaveLength(7)
    expect(week.dailyStats[6]).toEqual({ date: dayAgo(0), likes: 2, views: 3, replies: 1, reposts: 1 })

    const oldWeek = await postStats(ann, old10, '7d')
    expect(oldWeek.post).toMatchObject({ likes: 1, views: 0, replies: 1, reposts: 0 })
    expect(oldWeek.engagementRate).toBe(0)
    const oldMonth = await postStats(ann, old10, '30d')
    expect(oldMonth.post).toMatchObject({ likes: 2, views: 20, replies: 1, reposts: 1 })
    expect(oldMonth.engagementRate).toBe(0.2)

    const others = await api(t.app, 'GET', `/api/analytics/posts/${p1}`, { token: bob.token })
    expect(others.statusCode).toBe(403)
    expect((others.json() as ErrorBody).error).toBe("Only a post's author can see its analytics")
    const hidden = await publish(t.app, ann.token, 'followers only', { visibility: 'followers' })
    expect((await api(t.app, 'GET', `/api/analytics/posts/${hidden.id}`, { token: dan.token })).statusCode).toBe(404)
    expect((await api(t.app, 'GET', `/api/analytics/posts/${randomUUID()}`, { token: ann.token })).statusCode).toBe(404)
    expect((await api(t.app, 'GET', `/api/analytics/posts/not-an-id`, { token: ann.token })).statusCode).toBe(404)
  })

  it('refuses any other timeRange (400) and strangers (401) on all four calls', async () => {
    for (const path of ['/api/analytics/user', `/api/analytics/posts/${p1}`, '/api/analytics/engagement', '/api/analytics/trends']) {
      for (const bad of ['1y', '7', '', '30D']) {
        const res = await api(t.app, 'GET', `${path}?timeRange=${bad}`, { token: ann.token })
        expect(res.statusCode, `${path} ${bad}`).toBe(400)
      }
      expect((await api(t.app, 'GET', path)).statusCode).toBe(401)
    }
  })

  it('an unlike takes the like off the day it was given; a deleted reply or post leaves the numbers', async () => {
    const before = await userStats(ann, '7d')
    // Cid liked old10 three days ago; unliking now leaves today alone.
    await like(cid, old10)
    const replies = (await get<Schemas['PostDetailResponse']>(ann, `/api/posts/${p1}`)).replies
    const bobsReply = replies.find((r) => r.content === 'a public reply')
    expect(bobsReply).toBeDefined()
    await remove(bob, bobsReply?.id ?? '')
    expect(await userStats(ann, '7d')).toMatchObject({ totalLikes: before.totalLikes - 1, totalReplies: before.totalReplies - 1 })
    const week = await trends(ann, '7d')
    expect(week.dailyStats[3]).toEqual({ date: dayAgo(3), posts: 0, likes: 0, views: 0 })
    expect(week.dailyStats[6]?.likes).toBe(3)

    await remove(ann, p2)
    expect(await userStats(ann, '7d')).toMatchObject({
      totalPosts: before.totalPosts - 1,
      totalViews: before.totalViews - 1,
      totalLikes: before.totalLikes - 2,
    })
  })
})

describe('daily counts stay exact under concurrency', () => {
  it('likes from many members at once, and views flushed while they land', async () => {
    const author = await quickMember(t.app, 'author')
    const crowd = await quickMembers(t.app, 12, 'crowd')
    const post = await publish(t.app, author.token, 'popular')
    await Promise.all(
      crowd.flatMap((m) => [
        api(t.app, 'POST', `/api/posts/${post.id}/like`, { token: m.token }),
        api(t.app, 'GET', `/api/posts/${post.id}`, { token: m.token }),
        t.app.services.views.flush(),
      ]),
    )
    await Promise.all(crowd.slice(0, 5).map((m) => api(t.app, 'POST', `/api/posts/${post.id}/like`, { token: m.token })))
    await t.app.services.views.flush()
    const stats = await get<Schemas['PostAnalyticsResponse']>(author, `/api/analytics/posts/${post.id}?timeRange=7d`)
    expect(stats.post).toMatchObject({ likes: 7, views: 12 })
    // Summed over the days, not read from today's row: a run that crosses midnight (UTC) splits them over two.
    const total = (field: 'likes' | 'views') => stats.dailyStats.reduce((sum, day) => sum + day[field], 0)
    expect({ likes: total('likes'), views: total('views') }).toEqual({ likes: 7, views: 12 })
  })
})
