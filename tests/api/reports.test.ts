import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { LIMITS } from '../../src/api/contract/limits'
import { REPORT_MOVES, type ReportStatus } from '../../src/api/contract/reports'
import { type Member, publish, quickMember } from './content-helpers'
import { fakeEnvelope, keyedMember, send, startConversation } from './e2ee-support'
import { api, type ErrorBody, useTestApp } from './harness'

// docs/product.md, "Reports". Runs with the caches on and, in `npm test`'s second pass, off (WREN_TEST_CACHES=off).
const t = useTestApp()

type Report = Schemas['Report']
const errorOf = (res: { json: () => unknown }) => (res.json() as ErrorBody).error
const file = (who: Member, kind: 'user' | 'post' | 'message', body: unknown) =>
  api(t.app, 'POST', `/api/reports/${kind}`, { token: who.token, body })
async function filed(who: Member, kind: 'user' | 'post' | 'message', body: unknown): Promise<Report> {
  const res = await file(who, kind, body)
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ report: Report }>().report
}
const review = (who: Member, id: string, body: unknown) => api(t.app, 'PATCH', `/api/reports/${id}`, { token: who.token, body })
async function reports(who: Member, query = ''): Promise<Schemas['ReportsPage']> {
  const res = await api(t.app, 'GET', `/api/reports${query}`, { token: who.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}
async function makeAdmin(): Promise<Member> {
  const admin = await quickMember(t.app, 'adm')
  await t.app.services.db.execute(sql`update users set is_admin = true where id = ${admin.id}`)
  return admin
}

let admin: Member
let ann: Member
let bob: Member
beforeAll(async () => {
  admin = await makeAdmin()
  ann = await quickMember(t.app, 'ann')
  bob = await quickMember(t.app, 'bob')
})

describe('filing a report', () => {
  it('reports a member, a post and answers the report as the reporter sees it', async () => {
    const user = await filed(ann, 'user', { userId: bob.id, reason: 'Impersonation', description: '  pretends to be me ' })
    expect(user).toMatchObject({
      type: 'user',
      status: 'pending',
      reason: 'Impersonation',
      description: 'pretends to be me',
      reporter: { id: ann.id, username: ann.username },
      target: { id: bob.id, username: bob.username, content: null },
      reviewNote: null,
      reviewedAt: null,
    })
    const post = await publish(t.app, bob.token, 'buy cheap followers now')
    const report = await filed(ann, 'post', { postId: post.id, reason: 'Spam' })
    expect(report.target).toEqual({ id: post.id, username: bob.username, displayName: `Member ${bob.username}`, content: 'buy cheap followers now' })
    expect(report.description).toBeNull()
  })

  it('refuses a blank or unknown reason, a description over 1,000, unknown fields and no token', async () => {
    for (const reason of ['', '   ', 'Because', 'spam']) {
      const res = await file(ann, 'user', { userId: bob.id, reason })
      expect(res.statusCode, reason).toBe(400)
    }
    expect((await file(ann, 'user', { userId: bob.id })).statusCode).toBe(400)
    const long = await file(ann, 'user', { userId: bob.id, reason: 'Spam', description: 'x'.repeat(LIMITS.reportDescriptionMax + 1) })
    expect(long.statusCode).toBe(400)
    expect((await file(ann, 'user', { userId: bob.id, reason: 'Spam', status: 'resolved' })).statusCode).toBe(400)
    expect((await api(t.app, 'POST', '/api/reports/user', { body: { userId: bob.id, reason: 'Spam' } })).statusCode).toBe(401)
    expect((await api(t.app, 'GET', '/api/reports')).statusCode).toBe(401)
  })

  it('refuses reporting oneself or one’s own post (400) and unknown or hidden targets (404)', async () => {
    const self = await file(ann, 'user', { userId: ann.id, reason: 'Spam' })
    expect(self.statusCode).toBe(400)
    expect(errorOf(self)).toBe('You cannot report yourself')
    const own = await publish(t.app, ann.token, 'my own words')
    const ownPost = await file(ann, 'post', { postId: own.id, reason: 'Spam' })
    expect(ownPost.statusCode).toBe(400)
    expect(errorOf(ownPost)).toBe('You cannot report your own post')
    expect((await file(ann, 'user', { userId: randomUUID(), reason: 'Spam' })).statusCode).toBe(404)
    expect((await file(ann, 'post', { postId: randomUUID(), reason: 'Spam' })).statusCode).toBe(404)
    expect((await file(ann, 'message', { messageId: randomUUID(), reason: 'Spam', messageText: 'x' })).statusCode).toBe(404)
    // Followers-only post of someone ann does not follow: invisible, so 404.
    const hidden = await publish(t.app, bob.token, 'for my followers', { visibility: 'followers' })
    const res = await file(ann, 'post', { postId: hidden.id, reason: 'Spam' })
    expect(res.statusCode).toBe(404)
    expect(errorOf(res)).toBe('Post not found')
    // Across a block either way: the member and their posts are as if absent.
    const cat = await quickMember(t.app, 'cat')
    const catPost = await publish(t.app, cat.token, 'cat was here')
    expect((await api(t.app, 'POST', `/api/blocks/user/${ann.id}`, { token: cat.token })).statusCode).toBeLessThan(300)
    expect((await file(ann, 'user', { userId: cat.id, reason: 'Spam' })).statusCode).toBe(404)
    expect((await file(ann, 'post', { postId: catPost.id, reason: 'Spam' })).statusCode).toBe(404)
  })

  it('refuses the same open report twice (409), even at once, and takes a new one once the first is closed', async () => {
    const dan = await quickMember(t.app, 'dan')
    const results = await Promise.all([1, 2, 3].map(() => file(ann, 'user', { userId: dan.id, reason: 'Spam' })))
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409])
    expect(errorOf(results.find((r) => r.statusCode === 409)!)).toBe('You already reported this; it is awaiting review')
    const first = results.find((r) => r.statusCode === 201)!.json<{ report: Report }>().report
    expect((await review(admin, first.id, { status: 'reviewed' })).statusCode).toBe(200)
    expect((await file(ann, 'user', { userId: dan.id, reason: 'Hate' })).statusCode).toBe(409)
    expect((await review(admin, first.id, { status: 'dismissed' })).statusCode).toBe(200)
    expect((await file(ann, 'user', { userId: dan.id, reason: 'Hate' })).statusCode).toBe(201)
    // Someone else may report the same member.
    expect((await file(bob, 'user', { userId: dan.id, reason: 'Hate' })).statusCode).toBe(201)
  })

  it('reports a message only for a participant, with the text the reporter’s browser decrypted', async () => {
    const a = await keyedMember(t.app, { displayName: 'Ana Sender' })
    const b = await keyedMember(t.app, { displayName: 'Bo Recipient' })
    const c = await keyedMember(t.app, { displayName: 'Cy Outsider' })
    const conversation = (await startConversation(t.app, a.token, b.user.id)).json<{ conversation: { id: string } }>().conversation
    const sent = (await send(t.app, a.token, conversation.id, fakeEnvelope())).json<{ message: { id: string } }>().message
    const bMember = { id: b.user.id, username: b.user.username, token: b.token }
    const report = await filed(bMember, 'message', { messageId: sent.id, reason: 'Harassment', messageText: 'you will regret this' })
    expect(report.type).toBe('message')
    expect(report.target).toMatchObject({ id: sent.id, username: a.user.username, displayName: 'Ana Sender', content: 'you will regret this' })
    const outsider = await file({ id: c.user.id, username: c.user.username, token: c.token }, 'message', {
      messageId: sent.id,
      reason: 'Spam',
      messageText: 'x',
    })
    expect(outsider.statusCode).toBe(404)
    const own = await file({ id: a.user.id, username: a.user.username, token: a.token }, 'message', {
      messageId: sent.id,
      reason: 'Spam',
      messageText: 'x',
    })
    expect(own.statusCode).toBe(400)
    expect(errorOf(own)).toBe('You cannot report your own message')
    expect((await file(bMember, 'message', { messageId: sent.id, reason: 'Spam' })).statusCode).toBe(400)
    expect(
      (await file(bMember, 'message', { messageId: sent.id, reason: 'Spam', messageText: 'x'.repeat(LIMITS.messageLength + 1) }))
        .statusCode,
    ).toBe(400)
  })
})

describe('who sees which reports', () => {
  it('shows a member only the reports they filed; an admin every report, by status, paged newest first', async () => {
    const eve = await quickMember(t.app, 'eve')
    const fay = await quickMember(t.app, 'fay')
    await filed(eve, 'user', { userId: fay.id, reason: 'Spam' })
    const mine = await reports(eve)
    expect(mine.reports.map((r) => r.reporter?.id)).toEqual([eve.id])
    expect((await reports(fay)).reports).toEqual([])
    const all = await reports(admin)
    expect(new Set(all.reports.map((r) => r.reporter?.id)).size).toBeGreaterThan(1)
    expect(all.reports[0]!.reporter?.id).toBe(eve.id)
    const pending = await reports(admin, '?status=pending')
    expect(pending.reports.every((r) => r.status === 'pending')).toBe(true)
    expect((await api(t.app, 'GET', '/api/reports?status=open', { token: admin.token })).statusCode).toBe(400)
    const first = await reports(admin, '?limit=2')
    expect(first.reports).toHaveLength(2)
    const second = await reports(admin, `?limit=2&cursor=${first.nextCursor}`)
    expect(second.reports[0]!.createdAt <= first.reports[1]!.createdAt).toBe(true)
    expect(second.reports.map((r) => r.id)).not.toContain(first.reports[0]!.id)
  })
})

describe('reviewing a report', () => {
  const targets: ReportStatus[] = ['reviewed', 'resolved', 'dismissed']
  const statuses: ReportStatus[] = ['pending', 'reviewed', 'resolved', 'dismissed']

  /** A fresh report brought to `status` through allowed moves. */
  async function reportAt(status: ReportStatus): Promise<Report> {
    const target = await quickMember(t.app, 'tgt')
    const report = await filed(ann, 'user', { userId: target.id, reason: 'Spam' })
    const path: Record<ReportStatus, ReportStatus[]> = {
      pending: [],
      reviewed: ['reviewed'],
      resolved: ['reviewed', 'resolved'],
      dismissed: ['dismissed'],
    }
    for (const step of path[status]) expect((await review(admin, report.id, { status: step })).statusCode).toBe(200)
    return report
  }

  it.each(statuses.flatMap((from) => targets.map((to) => [from, to] as const)))(
    'from %s to %s follows the transition table',
    async (from, to) => {
      const report = await reportAt(from)
      const res = await review(admin, report.id, { status: to, reviewNote: 'checked' })
      if (REPORT_MOVES[from].includes(to)) {
        expect(res.statusCode, res.body).toBe(200)
        expect(res.json<{ report: Report }>().report).toMatchObject({ status: to, reviewNote: 'checked' })
      } else {
        expect(res.statusCode).toBe(409)
        expect(errorOf(res)).toMatch(`A ${from} report cannot be marked ${to}`)
      }
    },
  )

  it('is for admins only (403), refuses unknown reports (404) and bad bodies (400)', async () => {
    const report = await reportAt('pending')
    const member = await review(ann, report.id, { status: 'reviewed' })
    expect(member.statusCode).toBe(403)
    expect(errorOf(member)).toBe('Admin privileges required')
    expect((await review(admin, randomUUID(), { status: 'reviewed' })).statusCode).toBe(404)
    expect((await review(admin, 'nope', { status: 'reviewed' })).statusCode).toBe(404)
    expect((await review(admin, report.id, { status: 'pending' })).statusCode).toBe(400)
    expect((await review(admin, report.id, {})).statusCode).toBe(400)
    expect((await review(admin, report.id, { status: 'reviewed', reviewNote: 'x'.repeat(LIMITS.reviewNoteMax + 1) })).statusCode).toBe(400)
    expect((await review(admin, report.id, { status: 'reviewed', reviewedAt: new Date().toISOString() })).statusCode).toBe(400)
    const removeOnUser = await review(admin, report.id, { status: 'dismissed', removePost: true })
    expect(removeOnUser.statusCode).toBe(400)
    expect(errorOf(removeOnUser)).toBe('Only a post report being resolved can remove its post')
  })

  it('stamps reviewedAt, keeps the note, tells the reporter, and the reporter sees the outcome', async () => {
    const gus = await quickMember(t.app, 'gus')
    const post = await publish(t.app, bob.token, 'a rude post')
    const report = await filed(gus, 'post', { postId: post.id, reason: 'Harassment' })
    const before = Date.now()
    const reviewed = (await review(admin, report.id, { status: 'reviewed', reviewNote: 'Looking into it' })).json<{ report: Report }>().report
    expect(new Date(reviewed.reviewedAt!).getTime()).toBeGreaterThanOrEqual(before - 1000)
    const resolved = (await review(admin, report.id, { status: 'resolved', reviewNote: 'Removed the post', removePost: true }))
      .json<{ report: Report }>().report
    expect(resolved).toMatchObject({ status: 'resolved', reviewNote: 'Removed the post', target: { content: null } })
    expect((await api(t.app, 'GET', `/api/posts/${post.id}`, { token: gus.token })).statusCode).toBe(404)
    const mine = (await reports(gus)).reports
    expect(mine).toHaveLength(1)
    expect(mine[0]).toMatchObject({ status: 'resolved', reviewNote: 'Removed the post' })
    const notifications = (await api(t.app, 'GET', '/api/notifications', { token: gus.token })).json<Schemas['NotificationsPage']>()
    const told = notifications.notifications.filter((n) => n.type === 'report')
    expect(told).toHaveLength(1)
    expect(told[0]).toMatchObject({ read: false, report: { id: report.id, status: 'resolved' }, from: { id: admin.id } })
    expect(notifications.unreadCount).toBe(1)
  })

  it('writes every review to the audit log', async () => {
    const report = await reportAt('pending')
    await review(admin, report.id, { status: 'dismissed' })
    const log = (await api(t.app, 'GET', '/api/admin/audit-log', { token: admin.token })).json<Schemas['AuditLogPage']>()
    // In words an admin reads: who filed it, about whom, and the status as the dialog labels it.
    expect(log.entries[0]).toMatchObject({
      action: 'review-report',
      actor: { id: admin.id },
      details: `Marked @${report.reporter?.username}'s report of @${report.target.username} Dismissed`,
    })
    expect(report.reporter?.username).toBeTruthy()
    expect(report.target.username).toBeTruthy()
  })
})
