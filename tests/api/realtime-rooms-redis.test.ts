import type { FastifyInstance } from 'fastify'
import { createClient } from 'redis'
import type { Socket } from 'socket.io-client'
import { describe, expect, it } from 'vitest'
import type { MessageEvent } from '../../src/api/contract/socket-events'
import type { Schemas } from '../../server/http/handler-types'
import type { RealtimeServer } from '../../server/realtime'
import { userRoom } from '../../server/realtime/events'
import { crossProcessAdapter, shardedPubSubSupported } from '../../server/realtime/redis-adapter'
import { fakeEnvelope, keyedMember, send, startConversation } from './e2ee-support'
import { useTwoProcesses } from './two-processes'

/**
 * Events for a member travel through Redis only to the processes holding that member's sockets (a sharded channel per
 * member room, server/realtime/redis-adapter.ts), and still reach every socket of the member on every process. What
 * each process hears from Redis is counted on its socket.io adapter.
 */

const { apps, servers, urls, open } = useTwoProcesses()
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'

interface Heard {
  type: number
  rooms: string[]
}

/** Everything a process's adapter receives from the other processes (its own publishes excluded). */
function listen(server: RealtimeServer): Heard[] {
  const heard: Heard[] = []
  const adapter = server.of('/').adapter as unknown as {
    uid: string
    onMessage(message: { uid: string; type: number; data?: { opts?: { rooms?: string[] } } }, offset?: string): unknown
  }
  const onMessage = adapter.onMessage.bind(adapter)
  adapter.onMessage = (message, offset) => {
    if (message.uid !== adapter.uid) heard.push({ type: message.type, rooms: message.data?.opts?.rooms ?? [] })
    return onMessage(message, offset)
  }
  return heard
}

const BROADCAST = 3
/** Broadcasts a process heard for these members' rooms (other tests sharing the Redis server are left out). */
const broadcastsFor = (heard: Heard[], ...userIds: string[]) =>
  heard.filter((h) => h.type === BROADCAST && h.rooms.some((room) => userIds.map(userRoom).includes(room)))

const next = (socket: Socket) =>
  new Promise<MessageEvent>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no new_message within 5 s')), 5_000)
    socket.once('new_message', (payload: MessageEvent) => {
      clearTimeout(timer)
      resolve(payload)
    })
  })

const settle = () => new Promise((resolve) => setTimeout(resolve, 200))

async function conversationOf(app: FastifyInstance, token: string, otherId: string) {
  return (await startConversation(app, token, otherId)).json<Schemas['ConversationResponse']>().conversation
}

async function subscribers(channel: string): Promise<number> {
  const client = createClient({ url: redisUrl })
  await client.connect()
  try {
    const reply = (await client.sendCommand(['PUBSUB', 'SHARDNUMSUB', channel])) as [string, number]
    return Number(reply[1])
  } finally {
    await client.close()
  }
}

describe('realtime events reach only the processes holding the member', () => {
  it('a message between two members on process one is never published to process two', async () => {
    const [one] = apps as [FastifyInstance, FastifyInstance]
    const [serverOne, serverTwo] = servers as [RealtimeServer, RealtimeServer]
    const heardByOne = listen(serverOne)
    const heardByTwo = listen(serverTwo)
    const a = await keyedMember(one)
    const c = await keyedMember(one)
    const socketA = await open(urls[0] ?? '', a.token)
    const socketC = await open(urls[0] ?? '', c.token)
    const conversation = await conversationOf(one, a.token, c.user.id)

    const arrivesAtC = next(socketC)
    const echoedToA = next(socketA)
    const sent = (await send(one, a.token, conversation.id, fakeEnvelope())).json<Schemas['DirectMessageResponse']>()
    expect(await arrivesAtC).toEqual({ conversationId: conversation.id, message: sent.message })
    expect(await echoedToA).toEqual({ conversationId: conversation.id, message: sent.message })
    await settle()
    expect(broadcastsFor(heardByTwo, a.user.id, c.user.id)).toEqual([])
    // Process one published it and holds both rooms: nothing came back to it from elsewhere either.
    expect(broadcastsFor(heardByOne, a.user.id, c.user.id)).toEqual([])
  })

  it("a message reaches every socket of both members across processes, and each process hears only its members' rooms", async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance]
    const [serverOne, serverTwo] = servers as [RealtimeServer, RealtimeServer]
    const heardByOne = listen(serverOne)
    const heardByTwo = listen(serverTwo)
    const a = await keyedMember(one)
    const b = await keyedMember(one)
    // A only on process one; B in three tabs, one on process one and two on process two.
    const socketA = await open(urls[0] ?? '', a.token)
    const bTabs = [await open(urls[0] ?? '', b.token), await open(urls[1] ?? '', b.token), await open(urls[1] ?? '', b.token)]
    const conversation = await conversationOf(one, a.token, b.user.id)

    // Sent through process two, which holds none of A's sockets: A's event goes to process one only.
    const arrivals = bTabs.map(next)
    const echoedToA = next(socketA)
    const sent = (await send(two, a.token, conversation.id, fakeEnvelope())).json<Schemas['DirectMessageResponse']>()
    const expected = { conversationId: conversation.id, message: sent.message }
    expect(await Promise.all(arrivals)).toEqual([expected, expected, expected])
    expect(await echoedToA).toEqual(expected)
    await settle()
    // Process one heard A's room and B's room (it holds a tab of each); process two published both and heard nothing.
    expect(broadcastsFor(heardByOne, a.user.id, b.user.id).map((h) => h.rooms)).toEqual([[userRoom(a.user.id)], [userRoom(b.user.id)]])
    expect(broadcastsFor(heardByTwo, a.user.id, b.user.id)).toEqual([])

    // A member's channel is listened to by as many processes as hold a socket of theirs, and left with the last one.
    const channelOf = (userId: string) => `socket.io#/#${userRoom(userId)}#`
    expect(await subscribers(channelOf(b.user.id))).toBe(2)
    expect(await subscribers(channelOf(a.user.id))).toBe(1)
    for (const tab of bTabs.slice(1)) tab.disconnect()
    await settle()
    expect(await subscribers(channelOf(b.user.id))).toBe(1)

    // Answered through process one: B's remaining tab is local there; process two no longer hears B's room.
    const heardBefore = heardByTwo.length
    const arrivesAtA = next(socketA)
    const reply = (await send(one, b.token, conversation.id, fakeEnvelope())).json<Schemas['DirectMessageResponse']>()
    expect(await arrivesAtA).toEqual({ conversationId: conversation.id, message: reply.message })
    await settle()
    expect(broadcastsFor(heardByTwo.slice(heardBefore), a.user.id, b.user.id)).toEqual([])
  })
})

describe('the adapter a Redis server allows', () => {
  it('sharded pub/sub from Redis 7.0', () => {
    expect(shardedPubSubSupported('7.0.15')).toBe(true)
    expect(shardedPubSubSupported('7.2.4')).toBe(true)
    expect(shardedPubSubSupported('8.0.0')).toBe(true)
    expect(shardedPubSubSupported('6.2.14')).toBe(false)
    expect(shardedPubSubSupported('5.0.7')).toBe(false)
  })

  it('an older Redis gets the classic adapter and one warning line', async () => {
    const pub = createClient({ url: redisUrl })
    const sub = pub.duplicate()
    await Promise.all([pub.connect(), sub.connect()])
    try {
      const olderPub = Object.assign(Object.create(pub) as typeof pub, {
        info: async () => '# Server\r\nredis_version:6.2.14\r\nredis_mode:standalone\r\n',
      })
      const warnings: string[] = []
      const log = { warn: (message: string) => warnings.push(message), debug: () => undefined }
      const adapter = await crossProcessAdapter(olderPub, sub, log as never)
      expect(adapter.mode).toBe('classic')
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(/Redis 6\.2\.14 has no sharded pub\/sub/)
      await expect(adapter.subscribed(['user:x'])).resolves.toBeUndefined()
    } finally {
      await Promise.allSettled([pub.close(), sub.close()])
    }
  })

  it('Redis 7 or later gets one channel per room', async () => {
    const pub = createClient({ url: redisUrl })
    const sub = pub.duplicate()
    await Promise.all([pub.connect(), sub.connect()])
    try {
      const log = { warn: () => undefined, debug: () => undefined }
      expect((await crossProcessAdapter(pub, sub, log as never)).mode).toBe('sharded')
    } finally {
      await Promise.allSettled([pub.close(), sub.close()])
    }
  })
})
