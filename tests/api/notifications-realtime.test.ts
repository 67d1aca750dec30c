import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app'
import { attachRealtime } from '../../server/realtime'
import type { NotificationEvent } from '../../src/api/contract/socket-events'
import { follow, publish, quickMember } from './content-helpers'
import { api, openTestDatabase, type TestDatabase, testCaches } from './harness'

// The unread count reaches the member's sockets when something happens to them, and only theirs.

let database: TestDatabase
let app: FastifyInstance
let url: string
const sockets: Socket[] = []

beforeAll(async () => {
  database = await openTestDatabase()
  app = await buildApp({ database: database.handle, config: { rateLimits: false, logLevel: 'silent' }, caches: testCaches })
  await attachRealtime(app)
  await app.listen({ port: 0, host: '127.0.0.1' })
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})
afterAll(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect()
  await app.close()
  await database.close()
})

async function listen(token: string): Promise<NotificationEvent[]> {
  const socket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true })
  sockets.push(socket)
  const heard: NotificationEvent[] = []
  socket.on('notification', (event: NotificationEvent) => heard.push(event))
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve())
    socket.once('connect_error', reject)
  })
  return heard
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150))

describe('notification events', () => {
  it('push the unread count to the recipient on a like, a follow and reading; nothing to anyone else', async () => {
    const [ann, bob] = [await quickMember(app), await quickMember(app)]
    const [annHears, bobHears] = [await listen(ann.token), await listen(bob.token)]
    const post = await publish(app, ann.token, 'ping')
    await api(app, 'POST', `/api/posts/${post.id}/like`, { token: bob.token })
    await settle()
    await follow(app, bob, ann)
    await settle()
    expect(annHears).toEqual([{ unreadCount: 1 }, { unreadCount: 2 }])
    await api(app, 'PATCH', '/api/notifications/read-all', { token: ann.token })
    await settle()
    expect(annHears.at(-1)).toEqual({ unreadCount: 0 })
    expect(bobHears).toEqual([])
  })

  it('gather a burst into few pushes, the last with the count after the whole burst', async () => {
    const ann = await quickMember(app)
    const fans = await Promise.all(Array.from({ length: 12 }, () => quickMember(app)))
    const annHears = await listen(ann.token)
    const posts = await Promise.all(fans.slice(0, 6).map((_, i) => publish(app, ann.token, `burst ${i}`)))
    // Twelve likes of six posts at once: twelve notifications' worth of changes (grouped into six items).
    await Promise.all(fans.map((fan, i) => api(app, 'POST', `/api/posts/${posts[i % posts.length]!.id}/like`, { token: fan.token })))
    await settle()
    expect(annHears.length).toBeGreaterThan(0)
    expect(annHears.length).toBeLessThan(12)
    expect(annHears.at(-1)).toEqual({ unreadCount: 6 })
  })
})
