import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { buildApp } from '../../server/app'
import type { Clock } from '../../server/lib/clock'
import { attachRealtime, type RealtimeServer } from '../../server/realtime'
import { openTestDatabase, type TestDatabase, testCaches } from './harness'

/**
 * Two server processes sharing one database and one Redis (REDIS_URL, 127.0.0.1:6379 by default): both apps run in
 * the test process, each with its own socket.io server, Redis adapter and cache bus, which is all that separates two
 * processes here. Realtime attaches before listening, as in server/main.ts. Sockets opened with `open` are closed
 * after each test.
 */
export function useTwoProcesses(options: { clock?: Clock } = {}) {
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
  const apps: FastifyInstance[] = []
  const servers: RealtimeServer[] = []
  const urls: string[] = []
  const sockets: Socket[] = []
  let database: TestDatabase

  beforeAll(async () => {
    database = await openTestDatabase()
    for (let i = 0; i < 2; i += 1) {
      const app = await buildApp({
        database: database.handle,
        config: { rateLimits: false, logLevel: 'silent', dataDir: database.dataDir, redisUrl },
        caches: testCaches,
        ...(options.clock ? { clock: options.clock } : {}),
      })
      servers.push(await attachRealtime(app, { redisUrl }))
      await app.listen({ port: 0, host: '127.0.0.1' })
      apps.push(app)
      urls.push(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`)
    }
  })
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect()
  })
  afterAll(async () => {
    for (const app of apps) await app.close()
    await database.close()
  })

  /** A socket to one process, connected (or rejected) before this resolves. */
  async function open(url: string, token: string): Promise<Socket> {
    const socket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true })
    sockets.push(socket)
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve())
      socket.once('connect_error', reject)
    })
    return socket
  }

  return { apps, servers, urls, open }
}
