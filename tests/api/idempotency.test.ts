import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { selectRows } from '../../server/db/rows'
import type { Schemas } from '../../server/http/handler-types'
import { IDEMPOTENCY_CLAIM_ABANDONED_MS, IDEMPOTENCY_KEY_TTL_MS, KEY_IN_PROGRESS, KEY_REUSED } from '../../server/modules/idempotency/service'
import { field, file, type FormPart, type Member, multipart, png, publish, quickMember } from './content-helpers'
import { fakeEnvelope, keyedMember } from './e2ee-support'
import { api, type ErrorBody, useTestApp } from './harness'

// docs/architecture.md, "Idempotent writes". Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
let now = Date.UTC(2026, 10, 27, 12)
const clock = { now: () => now }
const t = useTestApp({ clock })

type Res = { statusCode: number; body: string; json: () => unknown }
const errorOf = (res: Res) => (res.json() as ErrorBody).error

function createPost(who: Member, parts: readonly FormPart[], key?: string) {
  const { payload, headers } = multipart(parts)
  return t.app.inject({
    method: 'POST',
    url: '/api/posts',
    payload,
    headers: { ...headers, authorization: `Bearer ${who.token}`, ...(key === undefined ? {} : { 'idempotency-key': key }) },
  })
}
const postOf = (res: Res) => (res.json() as Schemas['PostResponse']).post
const withKey = (key: string) => ({ 'idempotency-key': key })

async function postCount(who: Member): Promise<number> {
  const [row] = await selectRows<{ n: number }>(t.app.services.db, sql`select count(*)::int as n from posts where author_id = ${who.id}`)
  return row?.n ?? 0
}

/** Sessions end when idle for long: after a jump of the clock the member signs in again (a new session). */
async function signInAgain(who: Member): Promise<void> {
  who.token = await t.app.services.sessions.create(who.id, { userAgent: 'tests' })
}

/** The same response twice: status and body, byte for byte. */
function expectSameAnswer(first: Res, second: Res): void {
  expect(second.statusCode, second.body).toBe(first.statusCode)
  expect(second.body).toBe(first.body)
}

let ann: Member
let bob: Member
beforeAll(async () => {
  ann = await quickMember(t.app, 'ann')
  bob = await quickMember(t.app, 'bob')
})

describe('Idempotency-Key on createPost', () => {
  it('answers a retry with the first post instead of posting twice', async () => {
    const key = randomUUID()
    const before = await postCount(ann)
    const first = await createPost(ann, [field('content', 'Only once, please')], key)
    expect(first.statusCode, first.body).toBe(201)
    const retry = await createPost(ann, [field('content', 'Only once, please')], key)
    expectSameAnswer(first, retry)
    expect(postOf(retry).id).toBe(postOf(first).id)
    expect(await postCount(ann)).toBe(before + 1)
  })

  it('keeps media posts single, fingerprinting the uploaded bytes', async () => {
    const key = randomUUID()
    const image = await png()
    const parts = [field('content', 'A picture'), file('media', 'a.png', 'image/png', image), field('alt', 'green')]
    const first = await createPost(ann, parts, key)
    expect(first.statusCode, first.body).toBe(201)
    expect(postOf(first).media).toHaveLength(1)
    expectSameAnswer(first, await createPost(ann, parts, key))

    // Same fields, other bytes under the same file name: another request.
    const otherImage = await png(24, 16, '#a37')
    const changed = await createPost(ann, [field('content', 'A picture'), file('media', 'a.png', 'image/png', otherImage), field('alt', 'green')], key)
    expect(changed.statusCode).toBe(422)
    expect(errorOf(changed)).toBe(KEY_REUSED)
  })

  it('answers a retried reply with the first reply, and the parent counts one', async () => {
    const parent = await publish(t.app, bob.token, 'Ask me anything')
    const key = randomUUID()
    const parts = [field('content', 'One question'), field('replyTo', parent.id)]
    const first = await createPost(ann, parts, key)
    expect(first.statusCode, first.body).toBe(201)
    expectSameAnswer(first, await createPost(ann, parts, key))
    const detail = await api(t.app, 'GET', `/api/posts/${parent.id}`, { token: bob.token })
    const body = detail.json() as Schemas['PostDetailResponse']
    expect(body.post.replyCount).toBe(1)
    expect(body.replies.map((r) => r.id)).toEqual([postOf(first).id])
  })

  it('refuses the same key with a different body (422) and with another operation (422)', async () => {
    const key = randomUUID()
    expect((await createPost(ann, [field('content', 'First words')], key)).statusCode).toBe(201)
    const other = await createPost(ann, [field('content', 'Other words')], key)
    expect(other.statusCode).toBe(422)
    expect(errorOf(other)).toBe(KEY_REUSED)
    const report = await api(t.app, 'POST', '/api/reports/user', {
      token: ann.token,
      body: { userId: bob.id, reason: 'Spam' },
      headers: withKey(key),
    })
    expect(report.statusCode).toBe(422)
    expect(errorOf(report)).toBe(KEY_REUSED)
  })

  it("keeps one member's key from answering another member", async () => {
    const key = randomUUID()
    const ann1 = await createPost(ann, [field('content', 'Same key, two members')], key)
    const bob1 = await createPost(bob, [field('content', 'Same key, two members')], key)
    expect([ann1.statusCode, bob1.statusCode]).toEqual([201, 201])
    expect(postOf(bob1).id).not.toBe(postOf(ann1).id)
    expect(postOf(bob1).author.id).toBe(bob.id)
  })

  it('lets concurrent duplicates make exactly one post; the others wait (409) or get the first answer', async () => {
    const key = randomUUID()
    const before = await postCount(ann)
    const answers = await Promise.all(Array.from({ length: 4 }, () => createPost(ann, [field('content', 'Racing')], key)))
    expect(await postCount(ann)).toBe(before + 1)
    const created = answers.filter((res) => res.statusCode === 201)
    expect(created.length).toBeGreaterThanOrEqual(1)
    expect(new Set(created.map((res) => postOf(res).id)).size).toBe(1)
    for (const res of answers.filter((r) => r.statusCode !== 201)) {
      expect(res.statusCode).toBe(409)
      expect(errorOf(res)).toBe(KEY_IN_PROGRESS)
    }
    // Once the first has finished, a retry gets its answer.
    expectSameAnswer(created[0]!, await createPost(ann, [field('content', 'Racing')], key))
  })

  it('leaves the key free when the first request failed, so the retry posts', async () => {
    const key = randomUUID()
    const tooLong = await createPost(ann, [field('content', 'x'.repeat(501))], key)
    expect(tooLong.statusCode).toBe(400)
    const gone = await createPost(ann, [field('content', 'A reply to nothing'), field('replyTo', randomUUID())], key)
    expect(gone.statusCode).toBe(404)
    const fixed = await createPost(ann, [field('content', 'Shorter now')], key)
    expect(fixed.statusCode, fixed.body).toBe(201)
  })

  it('forgets a key after 24 hours: the same request posts again, and the sweep deletes old keys', async () => {
    const key = randomUUID()
    const before = await postCount(ann)
    const first = await createPost(ann, [field('content', 'Yesterday')], key)
    expect(first.statusCode).toBe(201)
    now += IDEMPOTENCY_KEY_TTL_MS - 60_000
    await signInAgain(ann)
    expectSameAnswer(first, await createPost(ann, [field('content', 'Yesterday')], key))
    now += 2 * 60_000
    await signInAgain(ann)
    const again = await createPost(ann, [field('content', 'Yesterday')], key)
    expect(again.statusCode).toBe(201)
    expect(postOf(again).id).not.toBe(postOf(first).id)
    expect(await postCount(ann)).toBe(before + 2)

    // The sweep job comes due an hour after the keys of that hour expire and deletes every forgotten key.
    now += IDEMPOTENCY_KEY_TTL_MS + 60 * 60_000
    await signInAgain(ann)
    await signInAgain(bob)
    await t.app.services.jobs.drain()
    const [left] = await selectRows<{ n: number }>(
      t.app.services.db,
      sql`select count(*)::int as n from idempotency_keys where created_at < ${new Date(now - IDEMPOTENCY_KEY_TTL_MS).toISOString()}::timestamptz`,
    )
    expect(left?.n).toBe(0)
  })

  it('refuses retries while a claim is in flight, and lets one through once the claim is abandoned (its process died)', async () => {
    const key = randomUUID()
    const first = await createPost(ann, [field('content', 'Lost with its process')], key)
    expect(first.statusCode).toBe(201)
    // As if the process died after claiming the key, before keeping an answer.
    await t.app.services.db.execute(sql`update idempotency_keys set status = null, body = null where key = ${key}`)
    const waiting = await createPost(ann, [field('content', 'Lost with its process')], key)
    expect(waiting.statusCode).toBe(409)
    expect(errorOf(waiting)).toBe(KEY_IN_PROGRESS)
    now += IDEMPOTENCY_CLAIM_ABANDONED_MS + 1_000
    await signInAgain(ann)
    const retried = await createPost(ann, [field('content', 'Lost with its process')], key)
    expect(retried.statusCode, retried.body).toBe(201)
    expectSameAnswer(retried, await createPost(ann, [field('content', 'Lost with its process')], key))
  })

  it('refuses a malformed key with 400 and a clear message; a quoted key is the same key', async () => {
    const blank = await createPost(ann, [field('content', 'Bad key')], 'has space')
    expect(blank.statusCode).toBe(400)
    expect(errorOf(blank)).toBe('Idempotency-Key may only contain visible ASCII characters (no spaces)')
    const long = await createPost(ann, [field('content', 'Bad key')], 'k'.repeat(256))
    expect(long.statusCode).toBe(400)
    expect(errorOf(long)).toBe('Idempotency-Key must be at most 255 characters')

    const key = randomUUID()
    const bare = await createPost(ann, [field('content', 'Quoted or not')], key)
    expectSameAnswer(bare, await createPost(ann, [field('content', 'Quoted or not')], `"${key}"`))
  })
})

describe('Idempotency-Key on messages and reports', () => {
  let sender: Member
  let recipient: Member
  beforeAll(async () => {
    const [a, b] = await Promise.all([keyedMember(t.app), keyedMember(t.app)])
    sender = { id: a.user.id, username: a.user.username, token: a.token }
    recipient = { id: b.user.id, username: b.user.username, token: b.token }
  })

  it('answers a retried new conversation with the first answer (201), not the reopen (200)', async () => {
    const key = randomUUID()
    const start = () =>
      api(t.app, 'POST', '/api/messages/conversations', { token: sender.token, body: { recipientId: recipient.id }, headers: withKey(key) })
    const first = await start()
    expect(first.statusCode, first.body).toBe(201)
    expectSameAnswer(first, await start())
    const unkeyed = await api(t.app, 'POST', '/api/messages/conversations', { token: sender.token, body: { recipientId: recipient.id } })
    expect(unkeyed.statusCode).toBe(200)
  })

  it('sends a retried message once', async () => {
    const opened = await api(t.app, 'POST', '/api/messages/conversations', { token: sender.token, body: { recipientId: recipient.id } })
    const conversationId = (opened.json() as Schemas['ConversationResponse']).conversation.id
    const key = randomUUID()
    const content = fakeEnvelope()
    const sendIt = () =>
      api(t.app, 'POST', `/api/messages/conversations/${conversationId}/messages`, { token: sender.token, body: { content }, headers: withKey(key) })
    const first = await sendIt()
    expect(first.statusCode, first.body).toBe(201)
    expectSameAnswer(first, await sendIt())
    const page = await api(t.app, 'GET', `/api/messages/conversations/${conversationId}/messages`, { token: recipient.token })
    const messages = (page.json() as Schemas['MessagesPage']).messages
    expect(messages.filter((m) => m.content === content)).toHaveLength(1)
  })

  it('files a retried report once: the retry gets the report, not "already reported" (409)', async () => {
    const post = await publish(t.app, bob.token, 'Something to report')
    const key = randomUUID()
    const fileIt = () =>
      api(t.app, 'POST', '/api/reports/post', { token: ann.token, body: { postId: post.id, reason: 'Spam' }, headers: withKey(key) })
    const first = await fileIt()
    expect(first.statusCode, first.body).toBe(201)
    expectSameAnswer(first, await fileIt())
    const unkeyed = await api(t.app, 'POST', '/api/reports/post', { token: ann.token, body: { postId: post.id, reason: 'Spam' } })
    expect(unkeyed.statusCode).toBe(409)
  })
})
