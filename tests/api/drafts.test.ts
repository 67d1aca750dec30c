import { existsSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { selectRows } from '../../server/db/rows'
import type { Schemas } from '../../server/http/handler-types'
import { PUBLISH_GAVE_UP, SCHEDULE_TOO_LATE, SCHEDULE_TOO_SOON, TOO_MANY_DRAFTS } from '../../server/modules/drafts/service'
import { CONTENT_REQUIRED } from '../../server/modules/posts/service'
import { LIMITS } from '../../src/api/contract/limits'
import { feed, field, file, follow, type Member, png, quickMember, send } from './content-helpers'
import { api, buildTestApp, useTestApp } from './harness'

// Drafts and scheduled posts: private to their author, media stored like a post's and removed with the draft, and a
// scheduled post published exactly once at its time by whichever process claims its job (two apps share the
// database here, as two processes would), or not at all when it was cancelled, rescheduled or its author is gone.

type Draft = Schemas['Draft']

let now = Date.now()
const clock = { now: () => now }
const t = useTestApp({ clock })
let ann: Member
let bob: Member

beforeAll(async () => {
  ann = await quickMember(t.app, 'ann')
  bob = await quickMember(t.app, 'bob')
  await follow(t.app, bob, ann)
})

const inMinutes = (minutes: number) => new Date(now + minutes * 60_000).toISOString()
const storedFile = (url: string) => path.join(t.database.dataDir, 'media', t.app.services.storage.keyOf(url) ?? 'missing')

async function saveDraft(
  member: Member,
  content: string,
  extra: Record<string, string> = {},
  app: FastifyInstance = t.app,
): Promise<Draft> {
  const res = await send(app, 'POST', '/api/drafts', member.token, [
    field('content', content),
    ...Object.entries(extra).map(([k, v]) => field(k, v)),
  ])
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as Schemas['DraftResponse']).draft
}

async function listOf(member: Member, kind: 'drafts' | 'scheduled', query = ''): Promise<Schemas['DraftsPage']> {
  const res = await api(t.app, 'GET', `/api/drafts?kind=${kind}${query}`, { token: member.token })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as Schemas['DraftsPage']
}

async function postsOf(member: Member, content: string): Promise<{ id: string; created_at: unknown }[]> {
  return selectRows(t.app.services.db, sql`select id, created_at from posts where author_id = ${member.id} and content = ${content}`)
}

describe('drafts', () => {
  it('saves, lists newest first with pages, opens, edits and deletes a draft', async () => {
    const first = await saveDraft(ann, 'first thought', { visibility: 'followers', sensitive: 'true', sensitiveReason: 'spoilers' })
    expect(first).toMatchObject({ content: 'first thought', visibility: 'followers', sensitive: true, sensitiveReason: 'spoilers' })
    expect(first.scheduledAt).toBeNull()
    const second = await saveDraft(ann, 'second thought')
    const page = await listOf(ann, 'drafts', '&limit=1')
    expect(page.drafts.map((d) => d.id)).toEqual([second.id])
    const next = await listOf(ann, 'drafts', `&limit=1&cursor=${page.nextCursor}`)
    expect(next.drafts.map((d) => d.id)).toEqual([first.id])

    const opened = await api(t.app, 'GET', `/api/drafts/${first.id}`, { token: ann.token })
    expect(opened.json().draft.content).toBe('first thought')
    const edited = await api(t.app, 'PATCH', `/api/drafts/${first.id}`, {
      token: ann.token,
      body: { content: 'better thought', sensitive: false },
    })
    expect(edited.statusCode, edited.body).toBe(200)
    expect(edited.json().draft).toMatchObject({
      content: 'better thought',
      sensitive: false,
      sensitiveReason: null,
      visibility: 'followers',
    })
    // Saving again puts it first.
    expect((await listOf(ann, 'drafts')).drafts[0]?.id).toBe(first.id)

    expect((await api(t.app, 'DELETE', `/api/drafts/${first.id}`, { token: ann.token })).statusCode).toBe(204)
    expect((await api(t.app, 'GET', `/api/drafts/${first.id}`, { token: ann.token })).statusCode).toBe(404)
    await api(t.app, 'DELETE', `/api/drafts/${second.id}`, { token: ann.token })
  })

  it("another member's draft is not found, whatever they try", async () => {
    const mine = await saveDraft(ann, 'private plans')
    for (const [method, url, body] of [
      ['GET', `/api/drafts/${mine.id}`, undefined],
      ['PATCH', `/api/drafts/${mine.id}`, { content: 'hijacked' }],
      ['DELETE', `/api/drafts/${mine.id}`, undefined],
      ['POST', `/api/drafts/${mine.id}/publish`, undefined],
    ] as const) {
      const res = await api(t.app, method, url, { token: bob.token, body })
      expect(res.statusCode, `${method} ${url}`).toBe(404)
    }
    expect((await listOf(bob, 'drafts')).drafts).toEqual([])
    expect((await api(t.app, 'GET', '/api/drafts/not-an-id', { token: ann.token })).statusCode).toBe(404)
    expect((await api(t.app, 'GET', `/api/drafts/${mine.id}`, {})).statusCode).toBe(401)
    const still = await api(t.app, 'GET', `/api/drafts/${mine.id}`, { token: ann.token })
    expect(still.json().draft.content).toBe('private plans')
    await api(t.app, 'DELETE', `/api/drafts/${mine.id}`, { token: ann.token })
  })

  it('keeps the content limits of posts, and a draft may be empty', async () => {
    const long = await send(t.app, 'POST', '/api/drafts', ann.token, [field('content', 'x'.repeat(LIMITS.postLength + 1))])
    expect(long.statusCode).toBe(400)
    const empty = await saveDraft(ann, '')
    // Publishing an empty draft meets the post's rule.
    const res = await api(t.app, 'POST', `/api/drafts/${empty.id}/publish`, { token: ann.token })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toBe(CONTENT_REQUIRED)
    await api(t.app, 'DELETE', `/api/drafts/${empty.id}`, { token: ann.token })
  })

  it('stores media like a post, keeps it through edits, and removes it when deleted', async () => {
    const res = await send(t.app, 'POST', '/api/drafts', ann.token, [
      field('content', 'two photos'),
      file('media', 'a.png', 'image/png', await png()),
      file('media', 'b.png', 'image/png', await png(30, 20, '#a37')),
      field('alt', 'first'),
      field('alt', 'second'),
    ])
    expect(res.statusCode, res.body).toBe(201)
    const draft = (res.json() as Schemas['DraftResponse']).draft
    expect(draft.media.map((m) => m.alt)).toEqual(['first', 'second'])
    const [a, b] = draft.media
    if (!a || !b) throw new Error('two media expected')
    expect(existsSync(storedFile(a.url))).toBe(true)
    // Keep the second only, with a new alt: the first file goes.
    const edited = await api(t.app, 'PATCH', `/api/drafts/${draft.id}`, {
      token: ann.token,
      body: { media: [{ id: b.id, alt: 'only one' }] },
    })
    expect(edited.statusCode, edited.body).toBe(200)
    expect(edited.json().draft.media).toMatchObject([{ id: b.id, alt: 'only one' }])
    expect(existsSync(storedFile(a.url))).toBe(false)
    expect(existsSync(storedFile(b.url))).toBe(true)
    const foreign = await api(t.app, 'PATCH', `/api/drafts/${draft.id}`, { token: ann.token, body: { media: [{ id: a.id }] } })
    expect(foreign.statusCode).toBe(400)
    expect((await api(t.app, 'DELETE', `/api/drafts/${draft.id}`, { token: ann.token })).statusCode).toBe(204)
    expect(existsSync(storedFile(b.url))).toBe(false)
  })

  it('publishing a draft makes a post with its media and alts, and removes the draft', async () => {
    const res = await send(t.app, 'POST', '/api/drafts', ann.token, [
      field('content', 'posted from a draft #drafts'),
      file('media', 'a.png', 'image/png', await png()),
      field('alt', 'a green square'),
    ])
    const draft = (res.json() as Schemas['DraftResponse']).draft
    const published = await api(t.app, 'POST', `/api/drafts/${draft.id}/publish`, { token: ann.token })
    expect(published.statusCode, published.body).toBe(201)
    const post = (published.json() as Schemas['PostResponse']).post
    expect(post).toMatchObject({ content: 'posted from a draft #drafts', hashtags: ['drafts'] })
    expect(post.media).toMatchObject([{ alt: 'a green square', url: draft.media[0]?.url }])
    expect(existsSync(storedFile(post.media[0]?.url ?? ''))).toBe(true)
    expect((await api(t.app, 'GET', `/api/drafts/${draft.id}`, { token: ann.token })).statusCode).toBe(404)
    expect((await api(t.app, 'POST', `/api/drafts/${draft.id}/publish`, { token: ann.token })).statusCode).toBe(404)
    expect((await feed(t.app, bob.token)).posts.map((p) => p.id)).toContain(post.id)
  })

  it(`caps a member at ${LIMITS.draftsPerMember} drafts and scheduled posts, exactly under concurrency`, async () => {
    const carl = await quickMember(t.app, 'carl')
    await t.app.services.db.execute(
      sql`insert into drafts (id, author_id, content)
          select gen_random_uuid(), ${carl.id}, 'filler ' || n from generate_series(1, ${LIMITS.draftsPerMember - 2}) n`,
    )
    const tries = await Promise.all([1, 2, 3, 4].map(() => send(t.app, 'POST', '/api/drafts', carl.token, [field('content', 'one more')])))
    expect(tries.map((r) => r.statusCode).sort()).toEqual([201, 201, 400, 400])
    expect(tries.find((r) => r.statusCode === 400)?.json().error).toBe(TOO_MANY_DRAFTS)
  })
})

describe('scheduled posts', () => {
  it('refuses a time less than a minute or more than a year ahead, and nonsense', async () => {
    for (const [at, error] of [
      [inMinutes(0.5), SCHEDULE_TOO_SOON],
      [inMinutes(-60), SCHEDULE_TOO_SOON],
      [inMinutes(366 * 24 * 60), SCHEDULE_TOO_LATE],
    ] as const) {
      const res = await send(t.app, 'POST', '/api/drafts', ann.token, [field('content', 'later'), field('scheduledAt', at)])
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toBe(error)
    }
    const nonsense = await send(t.app, 'POST', '/api/drafts', ann.token, [field('content', 'later'), field('scheduledAt', 'tomorrow')])
    expect(nonsense.statusCode).toBe(400)
    const draft = await saveDraft(ann, 'later')
    const patched = await api(t.app, 'PATCH', `/api/drafts/${draft.id}`, { token: ann.token, body: { scheduledAt: inMinutes(0) } })
    expect(patched.statusCode).toBe(400)
    expect(patched.json().error).toBe(SCHEDULE_TOO_SOON)
    await api(t.app, 'DELETE', `/api/drafts/${draft.id}`, { token: ann.token })
  })

  it('publishes at its time exactly once with two processes polling, through the normal post path', async () => {
    const other = await buildTestApp(t.database, { clock })
    try {
      const content = `scheduled hello @${bob.username} #later`
      const scheduled = await saveDraft(ann, content, { scheduledAt: inMinutes(5) })
      expect(scheduled.scheduledAt).not.toBeNull()
      expect((await listOf(ann, 'scheduled')).drafts.map((d) => d.id)).toEqual([scheduled.id])
      expect((await listOf(ann, 'drafts')).drafts.map((d) => d.id)).not.toContain(scheduled.id)
      // Not yet.
      await Promise.all([t.app.services.jobs.drain(), other.services.jobs.drain()])
      expect(await postsOf(ann, content)).toEqual([])

      now += 5 * 60_000 + 1_000
      await Promise.all([t.app.services.jobs.drain(), other.services.jobs.drain(), t.app.services.jobs.drain()])
      const rows = await postsOf(ann, content)
      expect(rows).toHaveLength(1)
      expect((await listOf(ann, 'scheduled')).drafts).toEqual([])
      // Read without caches: either process may have published it, and these two share no invalidation bus (Redis
      // does that in production), so the other's cached feed may not know of it yet.
      const reader = await buildTestApp(t.database, { clock, caches: false })
      try {
        const bobFeed = await feed(reader, bob.token)
        expect(bobFeed.posts[0]).toMatchObject({ content, hashtags: ['later'], mentions: [bob.username] })
        const notes = await api(reader, 'GET', '/api/notifications', { token: bob.token })
        expect(JSON.stringify(notes.json())).toContain('mention')
      } finally {
        await reader.close()
      }
    } finally {
      await other.close()
    }
  })

  it('publishes after a restart: the job is a row, not a timer', async () => {
    const content = 'survives restarts'
    await saveDraft(ann, content, { scheduledAt: inMinutes(2) })
    const restarted = await buildTestApp(t.database, { clock })
    try {
      now += 2 * 60_000 + 1_000
      // The file's own app polls too and may claim it first: wait for both.
      await Promise.all([restarted.services.jobs.drain(), t.app.services.jobs.drain()])
      expect(await postsOf(ann, content)).toHaveLength(1)
    } finally {
      await restarted.close()
    }
  })

  it('a rescheduled post goes out at its new time only; a cancelled one never', async () => {
    const moved = await saveDraft(ann, 'moved later', { scheduledAt: inMinutes(2) })
    const res = await api(t.app, 'PATCH', `/api/drafts/${moved.id}`, {
      token: ann.token,
      body: { scheduledAt: inMinutes(10), content: 'moved later, edited' },
    })
    expect(res.statusCode, res.body).toBe(200)
    const cancelled = await saveDraft(ann, 'never mind', { scheduledAt: inMinutes(2) })
    const back = await api(t.app, 'PATCH', `/api/drafts/${cancelled.id}`, { token: ann.token, body: { scheduledAt: null } })
    expect(back.json().draft.scheduledAt).toBeNull()
    const deleted = await saveDraft(ann, 'deleted before', { scheduledAt: inMinutes(2) })
    await api(t.app, 'DELETE', `/api/drafts/${deleted.id}`, { token: ann.token })

    now += 3 * 60_000
    await t.app.services.jobs.drain()
    expect(await postsOf(ann, 'moved later')).toEqual([])
    expect(await postsOf(ann, 'moved later, edited')).toEqual([])
    expect(await postsOf(ann, 'never mind')).toEqual([])
    expect(await postsOf(ann, 'deleted before')).toEqual([])
    expect((await listOf(ann, 'drafts')).drafts.map((d) => d.id)).toContain(cancelled.id)

    now += 8 * 60_000
    await t.app.services.jobs.drain()
    expect(await postsOf(ann, 'moved later, edited')).toHaveLength(1)
    await api(t.app, 'DELETE', `/api/drafts/${cancelled.id}`, { token: ann.token })
  })

  it('publishing by hand and the job at once make one post', async () => {
    const content = 'raced'
    const draft = await saveDraft(ann, content, { scheduledAt: inMinutes(2) })
    now += 2 * 60_000 + 1_000
    const [byHand] = await Promise.all([
      api(t.app, 'POST', `/api/drafts/${draft.id}/publish`, { token: ann.token }),
      t.app.services.jobs.drain(),
    ])
    expect([201, 404]).toContain(byHand.statusCode)
    expect(await postsOf(ann, content)).toHaveLength(1)
  })

  it('a publish refused by the rules shows as failed with the reason; editing it schedules it again', async () => {
    const dana = await quickMember(t.app, 'dana')
    const draft = await saveDraft(dana, '', { scheduledAt: inMinutes(2) })
    now += 2 * 60_000 + 1_000
    await t.app.services.jobs.drain()
    const [failed] = (await listOf(dana, 'scheduled')).drafts
    expect(failed).toMatchObject({ id: draft.id, failure: CONTENT_REQUIRED })
    const fixed = await api(t.app, 'PATCH', `/api/drafts/${draft.id}`, {
      token: dana.token,
      body: { content: 'fixed now', scheduledAt: inMinutes(2) },
    })
    expect(fixed.json().draft.failure).toBeNull()
    now += 2 * 60_000 + 1_000
    await t.app.services.jobs.drain()
    expect(await postsOf(dana, 'fixed now')).toHaveLength(1)
    expect(PUBLISH_GAVE_UP).toMatch(/reschedule/)
  })

  it("nothing is published once the author's account is being deleted, and their draft files go", async () => {
    const erin = await quickMember(t.app, 'erin')
    const res = await send(t.app, 'POST', '/api/drafts', erin.token, [
      field('content', 'from beyond'),
      field('scheduledAt', inMinutes(2)),
      file('media', 'a.png', 'image/png', await png()),
    ])
    const draft = (res.json() as Schemas['DraftResponse']).draft
    await t.app.services.db.execute(sql`update users set deleted_at = now() where id = ${erin.id}`)
    now += 2 * 60_000 + 1_000
    await t.app.services.jobs.drain()
    expect(await postsOf(erin, 'from beyond')).toEqual([])
    const { deleteAllDrafts } = await import('../../server/modules/drafts/queries')
    const keys = await deleteAllDrafts(t.app.services.db, erin.id)
    expect(keys).toContain(t.app.services.storage.keyOf(draft.media[0]?.url))
  })
})
