import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { selectRows } from '../../server/db/rows'
import { users } from '../../server/db/schema'
import type { Schemas } from '../../server/http/handler-types'
import { GroupCommit } from '../../server/lib/group-commit'
import { follow, type Member, publish, quickMember, quickMembers } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'
import { countStatements } from './statement-counter'

/**
 * Likes and reposts are written in batches (server/modules/posts/reactions.ts): what a member sees must be what one
 * like at a time would give, whatever lands in the same batch.
 */

const t = useTestApp()
let author: Member
let crowd: Member[]

beforeAll(async () => {
  author = await quickMember(t.app, 'author')
  crowd = await quickMembers(t.app, 40, 'fan')
})

const like = (who: Member, postId: string) => api(t.app, 'POST', `/api/posts/${postId}/like`, { token: who.token })
const liked = (res: { json: () => unknown }) => res.json() as Schemas['LikeResponse']

async function inbox(who: Member): Promise<Schemas['NotificationsPage']> {
  return (await api(t.app, 'GET', '/api/notifications', { token: who.token })).json() as Schemas['NotificationsPage']
}

async function storedCounts(postId: string): Promise<{ like_count: number; likes: number; rows: number; today: number }> {
  const [row] = await selectRows<{ like_count: number; likes: number; rows: number; today: number }>(
    t.app.services.db,
    sql`select p.like_count,
          (select count(*)::int from likes where post_id = p.id) as likes,
          (select count(*)::int from post_daily_stats where post_id = p.id) as rows,
          (select coalesce(sum(likes), 0)::int from post_daily_stats
            where post_id = p.id and day = (now() at time zone 'UTC')::date) as today
        from posts p where p.id = ${postId}`,
  )
  if (!row) throw new Error('no such post')
  return row
}

describe('a burst of likes on one post', () => {
  it('counts every like once: the counter, the day, the one notification item and each answer', async () => {
    const post = await publish(t.app, author.token, 'going viral')
    const counter = countStatements(t.app.services.db)
    const answers = await Promise.all(crowd.map((m) => like(m, post.id)))
    counter.stop()
    expect(answers.map((r) => r.statusCode)).toEqual(crowd.map(() => 200))
    const states = answers.map(liked)
    expect(states.every((s) => s.liked)).toBe(true)
    // Each answer carries the count just after its own like: all of 1..40 once each, as if written one at a time.
    expect(states.map((s) => s.likeCount).sort((a, b) => a - b)).toEqual(crowd.map((_, i) => i + 1))
    expect(await storedCounts(post.id)).toEqual({ like_count: 40, likes: 40, rows: 1, today: 40 })
    const items = (await inbox(author)).notifications.filter((n) => n.post?.id === post.id)
    expect(items).toHaveLength(1)
    expect(items[0]).toMatchObject({ type: 'like', othersCount: 39, read: false })
    // One at a time a like took about eleven statements; in batches, little more than its own row and its session.
    expect(counter.statements.length).toBeLessThan(crowd.length * 3)
  })

  it('takes a like and an unlike by one member in the same batch back out of the notification', async () => {
    const post = await publish(t.app, author.token, 'changed my mind')
    const [fan] = await t.app.services.db.select().from(users).where(eq(users.id, (crowd[0] as Member).id))
    if (!fan) throw new Error('no fan')
    // Submitted in the same turn of the event loop, so they are written in one batch, in this order.
    const both = await Promise.all([
      t.app.services.posts.toggle(fan, post.id, 'likes'),
      t.app.services.posts.toggle(fan, post.id, 'likes'),
    ])
    expect(both).toEqual([
      { active: true, count: 1 },
      { active: false, count: 0 },
    ])
    expect(await storedCounts(post.id)).toMatchObject({ like_count: 0, likes: 0, today: 0 })
    expect((await inbox(author)).notifications.filter((n) => n.post?.id === post.id)).toEqual([])
  })

  it('answers each flip on its own: a post the member may not see and a repost of a non-public post fail alone', async () => {
    const open = await publish(t.app, author.token, 'for all')
    const closed = await publish(t.app, author.token, 'for followers', { visibility: 'followers' })
    const outsider = crowd[1] as Member
    const follower = crowd[2] as Member
    await follow(t.app, follower, author)
    const answers = await Promise.all([
      like(outsider, open.id),
      like(outsider, closed.id),
      api(t.app, 'POST', `/api/posts/${closed.id}/repost`, { token: follower.token }),
      like(follower, closed.id),
      like(crowd[3] as Member, '0190f2a4-0000-7000-8000-000000000000'),
    ])
    expect(answers.map((r) => r.statusCode)).toEqual([200, 404, 403, 200, 404])
    expect((answers[1]!.json() as ErrorBody).error).toBe('Post not found')
    expect((answers[2]!.json() as ErrorBody).error).toBe('Only public posts can be reposted')
    expect(liked(answers[3]!)).toEqual({ liked: true, likeCount: 1 })
    expect(await storedCounts(closed.id)).toMatchObject({ like_count: 1, likes: 1 })
  })

  it('never fails or leaves a count behind when the post is deleted while likes are in flight', async () => {
    const post = await publish(t.app, author.token, 'here and gone')
    const likes = crowd.slice(0, 20).map((m) => like(m, post.id))
    const deletion = api(t.app, 'DELETE', `/api/posts/${post.id}`, { token: author.token })
    const answers = await Promise.all(likes)
    expect((await deletion).statusCode).toBe(204)
    for (const res of answers) expect([200, 404]).toContain(res.statusCode)
    const [left] = await selectRows<{ likes: number; stats: number; items: number }>(
      t.app.services.db,
      sql`select (select count(*)::int from likes where post_id = ${post.id}) as likes,
            (select count(*)::int from post_daily_stats where post_id = ${post.id}) as stats,
            (select count(*)::int from notifications where post_id = ${post.id}) as items`,
    )
    expect(left).toEqual({ likes: 0, stats: 0, items: 0 })
  })
})

describe('group commit', () => {
  it('writes what arrives while a batch is written as the next batch, answering each item with its own result', async () => {
    const batches: number[][] = []
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const commits = new GroupCommit<number, string>(async (items) => {
      batches.push([...items])
      if (batches.length === 1) await gate
      return items.map((n) => (n < 0 ? new Error(`bad ${n}`) : `ok ${n}`))
    })
    const first = commits.submit(1)
    await new Promise((resolve) => setImmediate(resolve))
    const rest = [2, -3, 4].map((n) => commits.submit(n))
    release()
    expect(await first).toBe('ok 1')
    const settled = await Promise.allSettled(rest)
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      'ok 2',
      'bad -3',
      'ok 4',
    ])
    expect(batches).toEqual([[1], [2, -3, 4]])
  })

  it('fails a whole batch that throws, and goes on with the next', async () => {
    let calls = 0
    const commits = new GroupCommit<number, number>(async (items) => {
      calls += 1
      if (calls === 1) throw new Error('database gone')
      return items.map((n) => n * 2)
    })
    const failed = await Promise.allSettled([commits.submit(1), commits.submit(2)])
    expect(failed.map((s) => s.status)).toEqual(['rejected', 'rejected'])
    expect(await commits.submit(3)).toBe(6)
    await commits.close()
  })
})
