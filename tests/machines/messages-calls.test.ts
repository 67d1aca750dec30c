import { describe, expect, it } from 'vitest'
import { Effect } from 'effect'
import { run } from '../../src/api/calls'
import { makeMessageCalls } from '../../src/api/messages.calls'
import { fakeApi, type Handler, json, where } from './support/fake-api'

// The message calls against a fake fetch: the method, path and body of each, what each answers, the typed refusal
// with the server's words, and the retry policy (reads once more, writes never: a retried send would post twice).

const setup = (handler: Handler) => fakeApi(makeMessageCalls, handler)

const message = {
  id: 'm1',
  conversationId: 'c1',
  senderId: 'u1',
  content: 'm1.aaa.bbb',
  read: false,
  edited: false,
  deleted: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  media: [],
}
const conversation = {
  id: 'c1',
  participants: [],
  lastMessage: null,
  lastActivity: '2026-01-01T00:00:00.000Z',
  unreadCount: 0,
  muted: false,
  archived: false,
}

describe('message calls', () => {
  it('reads conversations, with the cursor and the archived list when asked', async () => {
    const page = { conversations: [conversation], nextCursor: 'n2' }
    const { calls, requests } = setup(() => json(200, page))
    await expect(run(calls.getConversations())).resolves.toEqual(page)
    await run(calls.getConversations('n2'))
    await run(calls.getConversations(null, true))
    expect(requests.map(where)).toEqual([
      'GET /api/messages/conversations',
      'GET /api/messages/conversations?cursor=n2',
      'GET /api/messages/conversations?archived=true',
    ])
  })

  it('starts a conversation with the recipient and answers it', async () => {
    const { calls, requests } = setup(() => json(201, { conversation }))
    await expect(run(calls.startConversation('u2'))).resolves.toEqual(conversation)
    expect(where(requests[0])).toBe('POST /api/messages/conversations')
    expect(await requests[0]?.json()).toEqual({ recipientId: 'u2' })
  })

  it('reads messages page by page and sends, edits and deletes ciphertext', async () => {
    const { calls, requests } = setup((request) => {
      if (request.method === 'GET') return json(200, { messages: [message], nextCursor: null })
      if (request.method === 'DELETE') return new Response(null, { status: 204 })
      return json(request.method === 'POST' ? 201 : 200, { message })
    })
    await expect(run(calls.getMessages('c1', 'k'))).resolves.toEqual({ messages: [message], nextCursor: null })
    await expect(run(calls.sendMessage('c1', 'm1.iv.ct'))).resolves.toEqual(message)
    await expect(run(calls.editMessage('m1', 'm1.iv2.ct2'))).resolves.toEqual(message)
    await expect(run(calls.deleteMessage('m1'))).resolves.toBeUndefined()
    expect(requests.map(where)).toEqual([
      'GET /api/messages/conversations/c1/messages?cursor=k',
      'POST /api/messages/conversations/c1/messages',
      'PATCH /api/messages/messages/m1',
      'DELETE /api/messages/messages/m1',
    ])
    expect(await requests[1]?.json()).toEqual({ content: 'm1.iv.ct' })
    expect(await requests[2]?.json()).toEqual({ content: 'm1.iv2.ct2' })
  })

  it("sends a message's Idempotency-Key when given one, and no such header without", async () => {
    const { calls, requests } = setup(() => json(201, { message }))
    await run(calls.sendMessage('c1', 'm1.iv.ct', [], 'b6a3a1a0-0f1e-4c2a-9d3b-1c2d3e4f5a6b'))
    await run(calls.sendMessage('c1', 'm1.iv.ct'))
    expect(requests[0]?.headers.get('idempotency-key')).toBe('b6a3a1a0-0f1e-4c2a-9d3b-1c2d3e4f5a6b')
    expect(requests[1]?.headers.has('idempotency-key')).toBe(false)
  })

  it('marks read, archives, mutes and deletes a conversation for the viewer', async () => {
    const { calls, requests } = setup((request) => {
      if (request.url.endsWith('/archive')) return json(200, { archived: true })
      if (request.url.endsWith('/mute')) return json(200, { muted: false })
      return new Response(null, { status: 204 })
    })
    await expect(run(calls.markRead('c1'))).resolves.toBeUndefined()
    await expect(run(calls.archiveConversation('c1'))).resolves.toBe(true)
    await expect(run(calls.muteConversation('c1', false))).resolves.toBe(false)
    await expect(run(calls.deleteConversation('c1'))).resolves.toBeUndefined()
    expect(requests.map(where)).toEqual([
      'POST /api/messages/conversations/c1/read',
      'POST /api/messages/conversations/c1/archive',
      'POST /api/messages/conversations/c1/mute',
      'DELETE /api/messages/conversations/c1',
    ])
    expect(await requests[1]?.json()).toEqual({ archived: true })
    expect(await requests[2]?.json()).toEqual({ muted: false })
  })

  it("reads a member's public key, null when they have none", async () => {
    const { calls, requests } = setup((request) =>
      json(200, { id: 'x', publicKey: request.url.includes('u2') ? 'pk-2' : null }),
    )
    await expect(run(calls.getPublicKey('u2'))).resolves.toBe('pk-2')
    await expect(run(calls.getPublicKey('u3'))).resolves.toBeNull()
    expect(requests.map(where)).toEqual(['GET /api/users/u2/public-key', 'GET /api/users/u3/public-key'])
  })

  it("a refusal is a typed error with the server's words", async () => {
    const { calls } = setup(() => json(403, { error: "Bob doesn't accept messages from you" }))
    const error = await Effect.runPromise(Effect.flip(calls.sendMessage('c1', 'm1.a.b')))
    expect(error).toMatchObject({ _tag: 'Forbidden', fromServer: true, message: "Bob doesn't accept messages from you" })
  })

  it('reads retry once on a transient failure; writes never retry', async () => {
    const read = setup((_request, attempt) => (attempt === 1 ? json(503, {}) : json(200, { messages: [], nextCursor: null })))
    await run(read.calls.getMessages('c1'))
    expect(read.fetch).toHaveBeenCalledTimes(2)
    const write = setup(() => json(503, {}))
    await expect(run(write.calls.sendMessage('c1', 'm1.a.b'))).rejects.toMatchObject({ _tag: 'Server' })
    expect(write.fetch).toHaveBeenCalledTimes(1)
  })
})
