import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalBus } from '../../server/cache/invalidation'
import type { Config } from '../../server/config'
import { eventually } from './cache-support'
import { field, quickMember, send } from './content-helpers'
import { buildTestApp, openTestDatabase, type TestDatabase } from './harness'

/**
 * Rate limits across processes: apps built on one Redis (REDIS_URL, 127.0.0.1:6379 by default: part of the test
 * services, as for tests/api/realtime-redis.test.ts) share their counts; an app whose Redis is unreachable counts in
 * its own memory, says so once, and goes back to Redis when it answers again. Each group of apps gets its own key
 * prefix, so parallel files and running servers never see each other's counts.
 */

const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const limits: Partial<Config> = { rateLimits: true, postLimitPerMember: { max: 3, windowMs: 60 * 60_000 } }

let database: TestDatabase
const apps: FastifyInstance[] = []
let redis: ChildProcess | undefined

beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(async () => {
  for (const app of apps) await app.close()
  redis?.kill()
  await database?.close()
})

async function app(url: string, namespace: string, log?: string[]): Promise<FastifyInstance> {
  const built = await buildTestApp(database, {
    config: { ...limits, redisUrl: url },
    rateLimitNamespace: namespace,
    // Only the limits are about Redis here: invalidations stay in the process.
    invalidationBus: new LocalBus(),
    ...(log ? { logger: { level: 'info', stream: { write: (line: string) => void log.push(line) } } } : {}),
  })
  apps.push(built)
  return built
}

const namespace = () => `wren-test-limits:${randomBytes(6).toString('hex')}`
const post = (on: FastifyInstance, token: string) =>
  send(on, 'POST', '/api/posts', token, [field('content', 'hello')]).then((res) => res.statusCode)

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (typeof address !== 'object' || address === null) throw new Error('no port')
  return address.port
}

const unreachable = (log: string[]) => log.filter((line) => line.includes('rate limits: Redis unreachable'))

describe('rate limits across processes', () => {
  it('two apps on one Redis share one limit per member', async () => {
    const prefix = namespace()
    const a = await app(redisUrl, prefix)
    const b = await app(redisUrl, prefix)
    const ann = await quickMember(a, 'shared')
    // Redis connects in the background; the first write waits for nothing, so give it its connection first.
    await eventually(async () => expect(await redisReady(a)).toBe(true))
    await eventually(async () => expect(await redisReady(b)).toBe(true))
    expect([await post(a, ann.token), await post(b, ann.token), await post(a, ann.token)]).toEqual([201, 201, 201])
    expect(await post(b, ann.token)).toBe(429)
    expect(await post(a, ann.token)).toBe(429)
  })

  it('with Redis unreachable, counts in memory and logs it once, then goes back to Redis when it returns', async () => {
    const port = await freePort()
    const log: string[] = []
    const prefix = namespace()
    const alone = await app(`redis://127.0.0.1:${port}`, prefix, log)
    const ann = await quickMember(alone, 'fallback')
    expect([await post(alone, ann.token), await post(alone, ann.token), await post(alone, ann.token)]).toEqual([
      201, 201, 201,
    ])
    expect(await post(alone, ann.token)).toBe(429)
    // The client keeps retrying (an error each time); the log says it once.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(unreachable(log)).toHaveLength(1)
    expect(JSON.parse(unreachable(log)[0] ?? '{}')).toMatchObject({ level: 40 })

    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    })
    await eventually(async () => expect(log.some((line) => line.includes('rate limits: Redis reachable again'))).toBe(true), 10_000)
    // Counting in Redis now: a second app on that Redis sees the same count for a new member.
    const other = await app(`redis://127.0.0.1:${port}`, prefix)
    await eventually(async () => expect(await redisReady(other)).toBe(true))
    const bob = await quickMember(alone, 'returned')
    expect([await post(alone, bob.token), await post(other, bob.token), await post(alone, bob.token)]).toEqual([
      201, 201, 201,
    ])
    expect(await post(other, bob.token)).toBe(429)
    expect(unreachable(log)).toHaveLength(1)
  })
})

/** Whether the app's limiter has its Redis connection (its health as the facade reports it). */
async function redisReady(on: FastifyInstance): Promise<boolean> {
  return on.services.rateLimits.store() === 'redis'
}
