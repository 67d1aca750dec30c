import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { waitText } from '../../server/lib/rate-limiter'
import { api, buildTestApp, type ErrorBody, useTestApp } from './harness'
import { fakeEnvelope, keyedMember, send, startConversation } from './e2ee-support'

// Small limits so a test can reach them (RATE_LIMITS is off in the other API tests).
const t = useTestApp({
  config: {
    rateLimits: true,
    messageLimitPerMember: { max: 3, windowMs: 10_000 },
    conversationLimitPerMember: { max: 2, windowMs: 60 * 60_000 },
  },
})

type Conversation = Schemas['Conversation']
type Response = Awaited<ReturnType<typeof send>>

afterEach(() => {
  vi.useRealTimers()
})

function expectLimited(res: Response, what: string, windowSeconds: number) {
  expect(res.statusCode).toBe(429)
  const retryAfter = Number(res.headers['retry-after'])
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds)
  expect(res.json<ErrorBody>()).toEqual({ error: `Too many ${what}. Try again in ${waitText(retryAfter)}.` })
}

async function pair() {
  const a = await keyedMember(t.app)
  const b = await keyedMember(t.app)
  const res = await startConversation(t.app, a.token, b.user.id)
  expect(res.statusCode).toBe(201)
  return { a, b, conversation: res.json<{ conversation: Conversation }>().conversation }
}

const edit = (token: string, messageId: string) =>
  api(t.app, 'PATCH', `/api/messages/messages/${messageId}`, { token, body: { content: fakeEnvelope() } })

describe('message limit', () => {
  it('limits sends and edits together per member, answering 429 with Retry-After; the other member is not affected', async () => {
    const { a, b, conversation } = await pair()
    const first = await send(t.app, a.token, conversation.id)
    expect(first.statusCode).toBe(201)
    expect((await send(t.app, a.token, conversation.id)).statusCode).toBe(201)
    expect((await edit(a.token, first.json<{ message: { id: string } }>().message.id)).statusCode).toBe(200)
    expectLimited(await send(t.app, a.token, conversation.id), 'messages', 10)
    expectLimited(await edit(a.token, first.json<{ message: { id: string } }>().message.id), 'messages', 10)
    // The refused attempts were not stored.
    const history = await api(t.app, 'GET', `/api/messages/conversations/${conversation.id}/messages`, { token: b.token })
    expect(history.json<{ messages: unknown[] }>().messages).toHaveLength(2)
    // The other participant still writes.
    for (let i = 0; i < 3; i += 1) expect((await send(t.app, b.token, conversation.id)).statusCode).toBe(201)
  })

  it('lets the member send again once the window has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
    const { a, conversation } = await pair()
    for (let i = 0; i < 3; i += 1) expect((await send(t.app, a.token, conversation.id)).statusCode).toBe(201)
    expectLimited(await send(t.app, a.token, conversation.id), 'messages', 10)
    vi.setSystemTime(Date.now() + 5_000)
    expectLimited(await send(t.app, a.token, conversation.id), 'messages', 5)
    vi.setSystemTime(Date.now() + 5_001)
    expect((await send(t.app, a.token, conversation.id)).statusCode).toBe(201)
  })
})

describe('new conversation limit', () => {
  it('limits new conversations per member; reopening an existing one does not count', async () => {
    const a = await keyedMember(t.app)
    const others = await Promise.all([1, 2, 3].map(() => keyedMember(t.app)))
    const [b, c, d] = others as [(typeof others)[0], (typeof others)[0], (typeof others)[0]]
    expect((await startConversation(t.app, a.token, b.user.id)).statusCode).toBe(201)
    for (let i = 0; i < 3; i += 1) expect((await startConversation(t.app, a.token, b.user.id)).statusCode).toBe(200)
    expect((await startConversation(t.app, a.token, c.user.id)).statusCode).toBe(201)
    expectLimited(await startConversation(t.app, a.token, d.user.id), 'new conversations', 60 * 60)
    // Existing conversations still open, and another member still starts one with a.
    expect((await startConversation(t.app, a.token, b.user.id)).statusCode).toBe(200)
    expect((await startConversation(t.app, d.token, a.user.id)).statusCode).toBe(201)
  })
})

describe('RATE_LIMITS=off', () => {
  let unlimited: FastifyInstance | undefined
  afterAll(async () => {
    await unlimited?.close()
  })

  it('disables the messaging limits too (the benchmarks run so)', async () => {
    unlimited = await buildTestApp(t.database, {
      config: {
        rateLimits: false,
        messageLimitPerMember: { max: 1, windowMs: 60_000 },
        conversationLimitPerMember: { max: 1, windowMs: 60_000 },
      },
    })
    const a = await keyedMember(unlimited)
    const [b, c] = [await keyedMember(unlimited), await keyedMember(unlimited)]
    const res = await startConversation(unlimited, a.token, b.user.id)
    expect(res.statusCode).toBe(201)
    expect((await startConversation(unlimited, a.token, c.user.id)).statusCode).toBe(201)
    const id = res.json<{ conversation: Conversation }>().conversation.id
    for (let i = 0; i < 3; i += 1) expect((await send(unlimited, a.token, id)).statusCode).toBe(201)
  })
})
