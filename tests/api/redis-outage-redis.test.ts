import { randomBytes } from 'node:crypto'
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { RedisBus } from '../../server/cache/redis-bus'
import { eventually } from './cache-support'
import { feed, follow, type Member, publish, quickMember } from './content-helpers'
import { api, buildTestApp, openTestDatabase, type TestDatabase } from './harness'

/**
 * Redis going away under two processes (A and B on one database), for real: A reaches Redis through a TCP proxy the
 * test can cut, B directly. While A is cut off its writes must not wait on Redis at all, one log line says so, and
 * when Redis is back every cache that may have missed a message (A's, which heard nothing, and B's, which never got
 * A's) is dropped: no stale answer lasts until a TTL.
 */

const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'

/** A TCP proxy in front of Redis that can be cut (every connection dropped, new ones refused) and restored. */
class CuttableProxy {
  private readonly server: Server
  private readonly sockets = new Set<Socket>()
  private cut = false

  constructor(target: URL) {
    this.server = createServer((client) => {
      if (this.cut) return void client.destroy()
      const upstream = connect({ host: target.hostname, port: Number(target.port || 6379) })
      for (const socket of [client, upstream]) {
        this.sockets.add(socket)
        socket.on('close', () => this.sockets.delete(socket))
        socket.on('error', () => undefined)
      }
      client.pipe(upstream).pipe(client)
      const end = () => {
        client.destroy()
        upstream.destroy()
      }
      client.on('close', end)
      upstream.on('close', end)
    })
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    return `redis://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  drop(): void {
    this.cut = true
    for (const socket of this.sockets) socket.destroy()
  }

  restore(): void {
    this.cut = false
  }

  close(): Promise<void> {
    this.drop()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}

const proxy = new CuttableProxy(new URL(redisUrl))
let database: TestDatabase
let a: FastifyInstance
let b: FastifyInstance
let busA: RedisBus
const logA: Array<{ level: number; msg: string }> = []
let ann: Member
let reader: Member

beforeAll(async () => {
  database = await openTestDatabase()
  const channel = `wren-test:${randomBytes(6).toString('hex')}`
  busA = await RedisBus.connect(await proxy.listen(), channel)
  const stream = { write: (line: string) => void logA.push(JSON.parse(line) as { level: number; msg: string }) }
  // About the caches themselves: on even when the suite runs with WREN_TEST_CACHES=off (tests/api/harness.ts).
  a = await buildTestApp(database, { caches: true, invalidationBus: busA, logger: { level: 'info', stream } })
  b = await buildTestApp(database, { caches: true, invalidationBus: await RedisBus.connect(redisUrl, channel) })
  ann = await quickMember(a, 'ann')
  reader = await quickMember(a, 'reader')
  await follow(a, reader, ann)
})

afterAll(async () => {
  await a?.close()
  await b?.close()
  await proxy.close()
  await database?.close()
})

const outageLines = () => logA.filter((line) => line.msg.startsWith('cache invalidations:'))
const texts = async (app: FastifyInstance, who: Member) => (await feed(app, who.token)).posts.map((p) => p.content)

describe('Redis lost under two processes', () => {
  it('A writes without waiting on Redis while it is gone, and on its return no cache stays stale on either side', async () => {
    // Both hold reader's feed, and A holds ann's author summary, before the outage.
    await publish(a, ann.token, 'before the outage')
    await eventually(async () => expect(await texts(b, reader)).toContain('before the outage'))
    expect((await feed(a, reader.token)).posts[0]?.author.displayName).toBe(`Member ${ann.username}`)

    proxy.drop()
    await eventually(async () => expect(a.services.invalidations.publishing).toBe(false))
    const published = vi.spyOn(busA, 'publish')

    // A posts and likes: each would wait out the publish bound, a like more than once; none even tries.
    for (let i = 0; i < 5; i += 1) {
      const post = await publish(a, ann.token, `during the outage ${i}`)
      expect((await api(a, 'POST', `/api/posts/${post.id}/like`, { token: reader.token })).statusCode).toBe(200)
    }
    expect(published).not.toHaveBeenCalled()
    // A's own caches saw its writes at once; one warning covers the whole outage.
    expect(await texts(a, reader)).toContain('during the outage 4')
    expect(outageLines()).toEqual([expect.objectContaining({ level: 40, msg: expect.stringContaining('Redis unreachable') })])

    // Meanwhile B renames ann: A does not hear it. B does not hear A's posts either.
    const renamed = await api(b, 'PATCH', '/api/users/profile', { token: ann.token, body: { displayName: 'Ann Renamed' } })
    expect(renamed.statusCode).toBe(200)
    expect(await texts(b, reader)).not.toContain('during the outage 4')

    proxy.restore()
    await eventually(async () => expect(a.services.invalidations.publishing).toBe(true), 5_000)
    published.mockRestore()
    // Well within every TTL (30 s and more): A dropped what it held, and B dropped what A never told it.
    await eventually(async () => expect((await feed(a, reader.token)).posts[0]?.author.displayName).toBe('Ann Renamed'))
    await eventually(async () => expect(await texts(b, reader)).toContain('during the outage 4'))
    expect(outageLines().map((line) => line.level)).toEqual([40, 30])

    // And publishing works as before.
    await publish(a, ann.token, 'after the outage')
    await eventually(async () => expect(await texts(b, reader)).toContain('after the outage'))
  })
})
