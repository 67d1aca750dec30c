import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app'
import { type AuthenticateAck, type RealtimeServer, attachRealtime, userRoom } from '../../server/realtime'
import { type ServerEventPayload, SERVER_EVENTS } from '../../src/api/contract/socket-events'
import type { Schemas } from '../../server/http/handler-types'
import { fakeEnvelope, keyedMember, send, startConversation } from './e2ee-support'
import { api, openTestDatabase, registerMember, type TestDatabase, testCaches, loginBody, passwordChange } from './harness'

let database: TestDatabase
let app: FastifyInstance
let io: RealtimeServer
let url: string
const sockets: Socket[] = []

beforeAll(async () => {
  database = await openTestDatabase()
  app = await buildApp({
    database: database.handle,
    config: { rateLimits: false, logLevel: 'silent' },
    caches: testCaches,
  })
  io = await attachRealtime(app)
  await app.listen({ port: 0, host: '127.0.0.1' })
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect()
})
afterAll(async () => {
  await app.close()
  await database.close()
})

function open(auth: Record<string, unknown>): Socket {
  const socket = connect(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true })
  sockets.push(socket)
  return socket
}

function outcome(socket: Socket): Promise<{ connected: true } | { connected: false; message: string }> {
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ connected: true }))
    socket.once('connect_error', (err) => resolve({ connected: false, message: err.message }))
  })
}

describe('realtime sockets', () => {
  it('accept a valid token and join the member room', async () => {
    const member = await registerMember(app)
    const socket = open({ token: member.token })
    expect(await outcome(socket)).toEqual({ connected: true })
    const inRoom = await io.in(userRoom(member.user.id)).fetchSockets()
    expect(inRoom).toHaveLength(1)

    const received = new Promise((resolve) => socket.once('new_message', resolve))
    const message = {
      id: 'm1',
      conversationId: 'c1',
      senderId: member.user.id,
      content: '{"v":1}',
      read: false,
      edited: false,
      deleted: false,
      createdAt: new Date(0).toISOString(),
      media: [],
    }
    io.to(userRoom(member.user.id)).emit('new_message', { conversationId: 'c1', message })
    expect(await received).toEqual({ conversationId: 'c1', message })
  })

  it('refuse a missing token and a revoked one', async () => {
    expect(await outcome(open({}))).toEqual({ connected: false, message: 'Authentication required' })
    expect(await outcome(open({ token: 'A'.repeat(43) }))).toEqual({
      connected: false,
      message: 'Session expired or revoked',
    })
  })

  it('confirm "authenticate" for the own account only', async () => {
    const member = await registerMember(app)
    const other = await registerMember(app)
    const socket = open({ token: member.token })
    await outcome(socket)
    const ask = (payload: unknown) =>
      new Promise<AuthenticateAck>((resolve) => socket.emit('authenticate', payload, resolve))
    expect(await ask(member.user.id)).toEqual({ ok: true, userId: member.user.id })
    expect(await ask(other.user.id)).toEqual({ ok: false, error: 'That is not the signed-in member' })
    // Switching accounts on an open socket needs the other account's token.
    expect(await ask({ token: other.token })).toEqual({ ok: true, userId: other.user.id })
    expect(await io.in(userRoom(other.user.id)).fetchSockets()).toHaveLength(1)
    expect(await io.in(userRoom(member.user.id)).fetchSockets()).toHaveLength(0)
  })

  it('drop the sockets of a session when it logs out', async () => {
    const member = await registerMember(app)
    const socket = open({ token: member.token })
    await outcome(socket)
    const dropped = new Promise((resolve) => socket.once('disconnect', resolve))
    expect((await api(app, 'POST', '/api/auth/logout', { token: member.token })).statusCode).toBe(204)
    expect(await dropped).toBe('io server disconnect')
  })
})

describe('message events', () => {
  type Heard = { event: string; payload: ServerEventPayload }
  /** Everything a socket hears of the server events, in order. */
  function listen(socket: Socket): Heard[] {
    const heard: Heard[] = []
    for (const event of SERVER_EVENTS) socket.on(event, (payload: ServerEventPayload) => heard.push({ event, payload }))
    return heard
  }
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10))
  }

  it('reach both participants (every socket of each) with the conversation and the ciphertext, and no one else', async () => {
    const a = await keyedMember(app)
    const b = await keyedMember(app)
    const eve = await keyedMember(app)
    const sockets = [open({ token: a.token }), open({ token: b.token }), open({ token: b.token }), open({ token: eve.token })]
    await Promise.all(sockets.map(outcome))
    const [heardA, heardB1, heardB2, heardEve] = sockets.map(listen) as [Heard[], Heard[], Heard[], Heard[]]

    const conversation = (await startConversation(app, a.token, b.user.id)).json<Schemas['ConversationResponse']>()
      .conversation
    const envelope = fakeEnvelope()
    const sent = (await send(app, a.token, conversation.id, envelope)).json<Schemas['DirectMessageResponse']>().message
    const edited = await api(app, 'PATCH', `/api/messages/messages/${sent.id}`, {
      token: a.token,
      body: { content: fakeEnvelope() },
    })
    await api(app, 'DELETE', `/api/messages/messages/${sent.id}`, { token: a.token })
    await until(() => [heardA, heardB1, heardB2].every((h) => h.length === 3))

    const expected: Heard[] = [
      { event: 'new_message', payload: { conversationId: conversation.id, message: sent } },
      {
        event: 'message_edited',
        payload: { conversationId: conversation.id, message: edited.json<Schemas['DirectMessageResponse']>().message },
      },
      {
        event: 'message_deleted',
        payload: { conversationId: conversation.id, message: { ...sent, content: '', edited: true, deleted: true } },
      },
    ]
    for (const heard of [heardA, heardB1, heardB2]) expect(heard).toEqual(expected)
    expect(heardEve).toEqual([])
  })

  it('tell both participants (every socket) when a read marked messages, and no one else; a read of nothing is silent', async () => {
    const a = await keyedMember(app)
    const b = await keyedMember(app)
    const eve = await keyedMember(app)
    const conversation = (await startConversation(app, a.token, b.user.id)).json<Schemas['ConversationResponse']>()
      .conversation
    await send(app, a.token, conversation.id)
    await send(app, a.token, conversation.id)
    const sockets = [open({ token: a.token }), open({ token: b.token }), open({ token: b.token }), open({ token: eve.token })]
    await Promise.all(sockets.map(outcome))
    const [heardA, heardB1, heardB2, heardEve] = sockets.map(listen) as [Heard[], Heard[], Heard[], Heard[]]
    const read = (token: string) => api(app, 'POST', `/api/messages/conversations/${conversation.id}/read`, { token })

    // The sender reading has nothing incoming to mark: silent.
    expect((await read(a.token)).statusCode).toBe(204)
    const before = Date.now()
    expect((await read(b.token)).statusCode).toBe(204)
    await until(() => [heardA, heardB1, heardB2].every((h) => h.length === 1))
    for (const heard of [heardA, heardB1, heardB2]) {
      expect(heard).toEqual([
        {
          event: 'messages_read',
          payload: { conversationId: conversation.id, readerId: b.user.id, readAt: expect.any(String) as string },
        },
      ])
    }
    const readAt = Date.parse((heardA[0]?.payload as { readAt: string }).readAt)
    expect(Math.abs(readAt - before)).toBeLessThan(60_000)
    const history = await api(app, 'GET', `/api/messages/conversations/${conversation.id}/messages`, { token: a.token })
    expect(history.json<Schemas['MessagesPage']>().messages.every((m) => m.read)).toBe(true)

    // Read again with nothing unread: no event.
    expect((await read(b.token)).statusCode).toBe(204)
    await send(app, b.token, conversation.id)
    await until(() => heardA.length === 2)
    expect(heardA.map((h) => h.event)).toEqual(['messages_read', 'new_message'])
    expect(heardB1.map((h) => h.event)).toEqual(['messages_read', 'new_message'])
    expect(heardEve).toEqual([])
  })

  it('follow the token, not a user id the client claims', async () => {
    const a = await keyedMember(app)
    const b = await keyedMember(app)
    const eve = await keyedMember(app)
    const socket = open({ token: eve.token, userId: b.user.id })
    await outcome(socket)
    const claim = await new Promise<AuthenticateAck>((resolve) => socket.emit('authenticate', b.user.id, resolve))
    expect(claim).toEqual({ ok: false, error: 'That is not the signed-in member' })
    const heard = listen(socket)
    const watcher = open({ token: b.token })
    await outcome(watcher)
    const heardByB = listen(watcher)
    const conversation = (await startConversation(app, a.token, b.user.id)).json<Schemas['ConversationResponse']>()
      .conversation
    await send(app, a.token, conversation.id)
    await until(() => heardByB.length === 1)
    expect(heardByB).toHaveLength(1)
    expect(heard).toEqual([])
  })

  it('drop the other sessions of a member who changes the password', async () => {
    const member = await registerMember(app)
    const other = (await api(app, 'POST', '/api/auth/login', {
      body: loginBody(member.user.username, member.password),
    })).json<{ token: string }>().token
    const kept = open({ token: member.token })
    const ended = open({ token: other })
    await Promise.all([outcome(kept), outcome(ended)])
    const dropped = new Promise((resolve) => ended.once('disconnect', resolve))
    const change = await api(app, 'POST', '/api/auth/change-password', {
      token: member.token,
      body: passwordChange(member.password, 'Brand-New-Pass-7'),
    })
    expect(change.statusCode).toBe(200)
    expect(await dropped).toBe('io server disconnect')
    expect(kept.connected).toBe(true)
  })
})
