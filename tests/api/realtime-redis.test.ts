import type { FastifyInstance } from 'fastify'
import type { Socket } from 'socket.io-client'
import { describe, expect, it } from 'vitest'
import type { MessageEvent } from '../../src/api/contract/socket-events'
import type { Schemas } from '../../server/http/handler-types'
import { fakeEnvelope, keyedMember, send, startConversation } from './e2ee-support'
import { useTwoProcesses } from './two-processes'

/**
 * Two server processes sharing one database and one Redis (REDIS_URL): a message sent through one reaches sockets
 * connected to the other. Both apps run in this test process, each with its own socket.io server, Redis adapter and
 * cache bus, which is all that separates two processes here. Redis is part of the test services (CI runs it too):
 * REDIS_URL names it, 127.0.0.1:6379 by default.
 */

const { apps, urls, open } = useTwoProcesses()

const next = (socket: Socket, event: 'new_message' | 'message_edited') =>
  new Promise<MessageEvent>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within 5 s`)), 5_000)
    socket.once(event, (payload: MessageEvent) => {
      clearTimeout(timer)
      resolve(payload)
    })
  })

describe('realtime across two processes through Redis', () => {
  it('delivers a message sent through one process to sockets on the other, both ways', async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance]
    const a = await keyedMember(one)
    const b = await keyedMember(one)
    const socketA = await open(urls[0] ?? '', a.token)
    const socketB = await open(urls[1] ?? '', b.token)

    const conversation = (await startConversation(one, a.token, b.user.id)).json<Schemas['ConversationResponse']>()
      .conversation
    const arrivesAtB = next(socketB, 'new_message')
    const sent = (await send(one, a.token, conversation.id, fakeEnvelope())).json<Schemas['DirectMessageResponse']>()
    expect(await arrivesAtB).toEqual({ conversationId: conversation.id, message: sent.message })

    // And back: B answers through process two, A's socket on process one hears it.
    const arrivesAtA = next(socketA, 'new_message')
    const reply = (await send(two, b.token, conversation.id, fakeEnvelope())).json<Schemas['DirectMessageResponse']>()
    expect(await arrivesAtA).toEqual({ conversationId: conversation.id, message: reply.message })
  })
})
