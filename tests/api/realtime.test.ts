import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app'
import { type AuthenticateAck, type RealtimeServer, attachRealtime, userRoom } from '../../server/realtime'
import { api, openTestDatabase, registerMember, type TestDatabase, testCaches } from './harness'

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
