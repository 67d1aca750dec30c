import { randomUUID } from 'node:crypto'
import { sql, type SQL } from 'drizzle-orm'
import { selectRows } from '../../server/db/rows'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { follow, type Member, publish, quickMember } from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

// docs/product.md, "Admin panel". Runs with the caches on and, in `npm test`'s second pass, off (WREN_TEST_CACHES=off).
const t = useTestApp()

const errorOf = (res: { json: () => unknown }) => (res.json() as ErrorBody).error
const post = (who: Member, url: string) => api(t.app, 'POST', url, { token: who.token })
const db = () => t.app.services.db
const one = async <T>(query: SQL): Promise<T> => (await selectRows<T>(db(), query))[0]!
async function makeAdmin(prefix = 'adm'): Promise<Member> {
  const admin = await quickMember(t.app, prefix)
  await db().execute(sql`update users set is_admin = true where id = ${admin.id}`)
  return admin
}
async function auditLog(who: Member, query = ''): Promise<Schemas['AuditLogPage']> {
  const res = await api(t.app, 'GET', `/api/admin/audit-log${query}`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}
async function profileStats(viewer: Member, username: string) {
  const res = await api(t.app, 'GET', `/api/users/${username}`, { token: viewer.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Schemas['UserProfileResponse']>().user.stats
}

let admin: Member
let member: Member
beforeAll(async () => {
  admin = await makeAdmin()
  member = await quickMember(t.app, 'mem')
})

describe('every admin call', () => {
  it.each([
    ['POST', '/api/users/fix-all-stats'],
    ['POST', `/api/users/${randomUUID()}/recalculate-stats`],
    ['POST', '/api/users/promote/somebody'],
    ['POST', '/api/users/demote/somebody'],
    ['POST', '/api/users/migrate-keys'],
    ['GET', '/api/admin/audit-log'],
  ] as const)('%s %s is 403 for a member and 401 without a token', async (method, url) => {
    const res = await api(t.app, method, url, { token: member.token })
    expect(res.statusCode).toBe(403)
    expect(errorOf(res)).toBe('Admin privileges required')
    expect((await api(t.app, method, url)).statusCode).toBe(401)
  })
})

describe('fix all stats', () => {
  it('repairs every counter broken on purpose and answers how many rows it fixed; a second run fixes none', async () => {
    const [a, b, c] = [await quickMember(t.app, 'fa'), await quickMember(t.app, 'fb'), await quickMember(t.app, 'fc')]
    await follow(t.app, a, b)
    await follow(t.app, c, b)
    const p = await publish(t.app, b.token, 'counted')
    await publish(t.app, a.token, 'a reply', { replyTo: p.id })
    expect((await post(a, `/api/posts/${p.id}/like`)).statusCode).toBe(200)
    expect((await post(c, `/api/posts/${p.id}/repost`)).statusCode).toBe(200)
    // Clean first, so only what this test breaks is counted.
    expect((await post(admin, '/api/users/fix-all-stats')).statusCode).toBe(200)

    await db().execute(sql`update users set followers_count = 40, following_count = 7, posts_count = 99 where id = ${b.id}`)
    await db().execute(sql`update users set following_count = 0 where id = ${a.id}`)
    await db().execute(sql`update posts set like_count = 5, repost_count = 0, reply_count = 3 where id = ${p.id}`)
    const res = await post(admin, '/api/users/fix-all-stats')
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json<Schemas['FixAllStatsResponse']>()
    // b: 3 counters, a: 1, the post: 3.
    expect(body.fixed).toBe(7)
    const { n } = await one<{ n: number }>(sql`select count(*)::int as n from users`)
    expect(body.recalculated).toBe(n)
    expect(await profileStats(member, b.username)).toEqual({ followers: 2, following: 0, posts: 1 })
    expect(await profileStats(member, a.username)).toEqual({ followers: 0, following: 1, posts: 1 })
    const card = (await api(t.app, 'GET', `/api/posts/${p.id}`, { token: member.token })).json<Schemas['PostDetailResponse']>()
    expect(card.post).toMatchObject({ likeCount: 1, repostCount: 1, replyCount: 1 })
    expect((await post(admin, '/api/users/fix-all-stats')).json()).toMatchObject({ fixed: 0 })
    expect((await auditLog(admin)).entries[0]).toMatchObject({ action: 'fix-all-stats', actor: { id: admin.id, username: admin.username } })
  })

  it('stays exact while members keep liking and following during the run', async () => {
    const author = await quickMember(t.app, 'busy')
    const p = await publish(t.app, author.token, 'popular')
    const fans = await Promise.all(Array.from({ length: 8 }, (_, i) => quickMember(t.app, `fan${i}`)))
    await db().execute(sql`update posts set like_count = 1000 where id = ${p.id}`)
    await Promise.all([
      post(admin, '/api/users/fix-all-stats'),
      ...fans.map((f) => post(f, `/api/posts/${p.id}/like`)),
      ...fans.map((f) => post(f, `/api/users/${author.id}/follow`)),
    ])
    const row = await one<{ like_count: number; likes: number; followers: number }>(
      sql`select like_count, (select count(*)::int from likes where post_id = ${p.id}) as likes,
            (select followers_count from users where id = ${author.id}) as followers
          from posts where id = ${p.id}`,
    )
    expect(row.likes).toBe(8)
    expect(row.like_count).toBe(8)
    expect(row.followers).toBe(8)
  })
})

describe('recalculate one member', () => {
  it('recounts their stats, 404 for an unknown id, and is in the audit log', async () => {
    const x = await quickMember(t.app, 'rx')
    await publish(t.app, x.token, 'one')
    await db().execute(sql`update users set posts_count = 12, followers_count = 3 where id = ${x.id}`)
    const res = await post(admin, `/api/users/${x.id}/recalculate-stats`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ user: { id: x.id, username: x.username, stats: { following: 0, followers: 0, posts: 1 } } })
    expect(await profileStats(member, x.username)).toEqual({ following: 0, followers: 0, posts: 1 })
    const unknown = await post(admin, `/api/users/${randomUUID()}/recalculate-stats`)
    expect(unknown.statusCode).toBe(404)
    expect(errorOf(unknown)).toBe('User not found')
    expect((await post(admin, '/api/users/not-an-id/recalculate-stats')).statusCode).toBe(404)
    expect((await auditLog(admin)).entries[0]).toMatchObject({ action: 'recalculate-stats', details: `Recalculated the stats of @${x.username}` })
  })
})

describe('promote and demote', () => {
  it('promotes by username (any case), idempotent; the new admin may act at once; 404 for unknown names', async () => {
    const y = await quickMember(t.app, 'py')
    expect((await post(y, '/api/users/fix-all-stats')).statusCode).toBe(403)
    const res = await post(admin, `/api/users/promote/${y.username.toUpperCase()}`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ user: { username: y.username, isAdmin: true } })
    expect((await post(admin, `/api/users/promote/${y.username}`)).json()).toEqual({ user: { username: y.username, isAdmin: true } })
    expect((await post(y, '/api/users/fix-all-stats')).statusCode).toBe(200)
    const unknown = await post(admin, '/api/users/promote/nobody_here_at_all')
    expect(unknown.statusCode).toBe(404)
    expect(errorOf(unknown)).toBe('User not found')
    expect((await post(admin, '/api/users/demote/nobody_here_at_all')).statusCode).toBe(404)

    expect((await post(admin, `/api/users/demote/${y.username}`)).json()).toEqual({ user: { username: y.username, isAdmin: false } })
    expect((await post(admin, `/api/users/demote/${y.username}`)).statusCode).toBe(200)
    expect((await post(y, '/api/users/fix-all-stats')).statusCode).toBe(403)
    const log = (await auditLog(admin)).entries.slice(0, 3).map((e) => [e.action, e.details])
    // The idempotent repeats changed nothing and wrote nothing.
    expect(log).toEqual([
      ['demote', `Demoted @${y.username} from admin`],
      ['fix-all-stats', expect.any(String)],
      ['promote', `Promoted @${y.username} to admin`],
    ])
  })

  it('never demotes the last admin (409), even when two admins demote each other at once', async () => {
    // Make this file's admins the only ones: everybody else loses the role.
    const second = await makeAdmin('adm2')
    await db().execute(sql`update users set is_admin = false where id not in (${admin.id}, ${second.id})`)
    const results = await Promise.all([
      post(admin, `/api/users/demote/${second.username}`),
      post(second, `/api/users/demote/${admin.username}`),
    ])
    // One wins. The other is refused: 409 when both passed the admin check and met at the last-admin rule, 403 when
    // the winner had committed before the loser's request was read (it is no admin any more).
    const codes = results.map((r) => r.statusCode).sort()
    expect(codes[0]).toBe(200)
    expect([403, 409]).toContain(codes[1])
    const refused = results.find((r) => r.statusCode !== 200)!
    if (refused.statusCode === 409) {
      expect(errorOf(refused)).toBe('The last admin cannot be demoted: promote another member first')
    }
    const { n } = await one<{ n: number }>(sql`select count(*)::int as n from users where is_admin`)
    expect(n).toBe(1)
    // Whoever is left cannot demote themselves either.
    const left = results[0]!.statusCode === 200 ? admin : second
    const self = await post(left, `/api/users/demote/${left.username}`)
    expect(self.statusCode).toBe(409)
    if (left !== admin) admin = left
  })
})

describe('the audit log', () => {
  it('records migrate-keys and pages newest first', async () => {
    const res = await post(admin, '/api/users/migrate-keys')
    expect(res.statusCode).toBe(200)
    const first = await auditLog(admin, '?limit=2')
    expect(first.entries[0]).toMatchObject({ action: 'migrate-keys' })
    expect(first.entries[0]!.details).toMatch(/^Asked \d+ members without message keys to make them$/)
    expect(first.nextCursor).not.toBeNull()
    const second = await auditLog(admin, `?limit=2&cursor=${first.nextCursor}`)
    expect(second.entries.length).toBeGreaterThan(0)
    expect(second.entries.map((e) => e.id)).not.toContain(first.entries[0]!.id)
    expect(second.entries[0]!.createdAt <= first.entries[1]!.createdAt).toBe(true)
    expect((await api(t.app, 'GET', '/api/admin/audit-log?cursor=garbage', { token: admin.token })).statusCode).toBe(400)
  })
})
