import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MessageEvent } from '../../src/api/contract/socket-events'
import type { Schemas } from '../../server/http/handler-types'
import { buildApp } from '../../server/app'
import { drainAndClose } from '../../server/http/drain'
import { attachRealtime } from '../../server/realtime'
import { fakeEnvelope, keyedMember, startConversation } from './e2ee-support'
import { bearer, openTestDatabase, type TestDatabase, testCaches } from './harness'

/**
 * A process shutting down drops its own sockets at once, but the requests it is still running finish, and the events
 * they emit must still reach sockets on the other processes (through the Redis adapter). Two apps on one database
 * and one Redis (REDIS_URL, 127.0.0.1:6379 by default); the first holds a message send in its preHandler until its
 * close has begun, as a deploy's SIGTERM would find it, and closes as SIGTERM closes it.
 */

const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
let database: TestDatabase
let leaving: FastifyInstance
let staying: FastifyInstance
let socket: Socket | undefined

let releaseSend: () => void = () => {}
let sendHeld: Promise<void>
let markHeld: () => void = () => {}
let closeBegan: Promise<void>
let markCloseBegan: () => void = () => {}

async function listening(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
}

beforeAll(async () => {
  database = await openTestDatabase()
  sendHeld = new Promise((resolve) => (markHeld = resolve))
  closeBegan = new Promise((resolve) => (markCloseBegan = resolve))
  const release = new Promise<void>((resolve) => (releaseSend = resolve))
  const config = { rateLimits: false, logLevel: 'silent' as const, dataDir: database.dataDir, redisUrl }
  leaving = await buildApp({
    database: database.handle,
    config,
    caches: testCaches,
    beforeRoutes: (app) =>
      app.addHook('preHandler', async (request) => {
        if (request.method === 'POST' && request.url.endsWith('/messages')) {
          markHeld()
          await release
        }
      }),
  })
  staying = await buildApp({ database: database.handle, config, caches: testCaches })
  for (const app of [leaving, staying]) await attachRealtime(app, { redisUrl })
  // After attachRealtime's own: preClose hooks run in the order they were added.
  leaving.addHook('preClose', async () => markCloseBegan())
})

afterAll(async () => {
  socket?.disconnect()
  await leaving.close()
  await staying.close()
  await database.close()
})

describe('realtime while a process shuts down', () => {
  it("delivers the event of a message whose request was still running when its process began closing", async () => {
    const leavingUrl = await listening(leaving)
    const stayingUrl = await listening(staying)
    const sender = await keyedMember(staying)
    const recipient = await keyedMember(staying)
    const conversation = (await startConversation(staying, sender.token, recipient.user.id)).json<Schemas['ConversationResponse']>()
      .conversation
    socket = connect(stayingUrl, { auth: { token: recipient.token }, transports: ['websocket'], reconnection: false, forceNew: true })
    await new Promise<void>((resolve, reject) => {
      socket?.once('connect', () => resolve())
      socket?.once('connect_error', reject)
    })
    const arrived = new Promise<MessageEvent>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no new_message within 5 s')), 5_000)
      socket?.once('new_message', (event: MessageEvent) => {
        clearTimeout(timer)
        resolve(event)
      })
    })

    const sending = fetch(`${leavingUrl}/api/messages/conversations/${conversation.id}/messages`, {
      method: 'POST',
      headers: { ...bearer(sender.token), 'content-type': 'application/json' },
      body: JSON.stringify({ content: fakeEnvelope() }),
    })
    await sendHeld
    // What SIGTERM does (server/main.ts), without the balancer's delay.
    const closing = drainAndClose(leaving, 0)
    await closeBegan
    releaseSend()
    const answer = await sending
    expect(answer.status).toBe(201)
    const sent = (await answer.json()) as Schemas['DirectMessageResponse']
    expect((await arrived).message.id).toBe(sent.message.id)
    await closing
  })
})
