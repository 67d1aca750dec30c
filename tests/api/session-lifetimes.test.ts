import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessions } from '../../server/db/schema'
import { hashToken } from '../../server/modules/auth/tokens'
import { SESSION_LIFETIMES } from '../../src/api/contract/session-lifetimes'
import { api, type AuthResponse, buildTestApp, loginBody, registerMember, useTestApp } from './harness'
import { countStatements } from './statement-counter'

/**
 * Sessions end by themselves: at their absolute end, or after their idle limit without a request. Time is moved with
 * the app's clock (buildApp's `clock`), never waited for.
 */

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR
let now = Date.UTC(2026, 10, 27, 12)
const clock = { now: () => now }
const later = (ms: number) => (now += ms)

const t = useTestApp({ clock })

const me = (token: string, app: FastifyInstance = t.app) => api(app, 'GET', '/api/auth/me', { token })
const signIn = async (username: string, password: string, remember?: boolean, app: FastifyInstance = t.app) => {
  const body = { ...loginBody(username, password), ...(remember === undefined ? {} : { remember }) }
  const res = await api(app, 'POST', '/api/auth/login', { body })
  expect(res.statusCode).toBe(200)
  return res.json<AuthResponse>().token
}
const rowOf = async (token: string) => {
  const [row] = await t.database.handle.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token)))
  return row
}
const expectEnded = async (token: string) => {
  const res = await me(token)
  expect(res.statusCode).toBe(401)
  expect(res.json()).toEqual({ error: 'Session expired or revoked' })
  expect(await rowOf(token)).toBeUndefined()
}

let member: Awaited<ReturnType<typeof registerMember>>
const revoked: string[] = []
beforeAll(async () => {
  member = await registerMember(t.app)
  t.app.services.sessions.onRevoked((ids) => revoked.push(...ids))
})

describe('lifetimes', () => {
  it('stores the absolute end from the clock: 7 days without Remember me, 90 days with it, 90 days on registration', async () => {
    const plain = await rowOf(await signIn(member.user.username, member.password))
    expect(plain?.remember).toBe(false)
    expect(plain?.expiresAt.getTime()).toBe(now + SESSION_LIFETIMES.unremembered.absoluteMs)
    expect(SESSION_LIFETIMES.unremembered.absoluteMs).toBe(7 * DAY)

    const remembered = await rowOf(await signIn(member.user.username, member.password, true))
    expect(remembered?.remember).toBe(true)
    expect(remembered?.expiresAt.getTime()).toBe(now + 90 * DAY)

    const registered = await registerMember(t.app)
    const row = await rowOf(registered.token)
    expect(row?.remember).toBe(true)
    expect(row?.expiresAt.getTime()).toBe(now + 90 * DAY)
  })

  it('ends a session without Remember me after 24 hours unused, answering 401 like a revoked one', async () => {
    const token = await signIn(member.user.username, member.password, false)
    const { id } = (await rowOf(token))!
    later(23 * HOUR)
    expect((await me(token)).statusCode).toBe(200)
    // The idle limit counts from the last use, not from sign-in.
    later(23 * HOUR)
    expect((await me(token)).statusCode).toBe(200)
    later(DAY)
    await expectEnded(token)
    expect(revoked).toContain(id)
  })

  it('keeps a remembered session through 29 idle days and ends it after 30', async () => {
    const token = await signIn(member.user.username, member.password, true)
    later(29 * DAY)
    expect((await me(token)).statusCode).toBe(200)
    later(30 * DAY + 1)
    await expectEnded(token)
  })

  it('ends a session at its absolute end however busy it is', async () => {
    const remembered = await signIn(member.user.username, member.password, true)
    const plain = await signIn(member.user.username, member.password, false)
    for (let day = 1; day < 7; day += 1) {
      later(20 * HOUR)
      expect((await me(plain)).statusCode).toBe(200)
    }
    later(DAY)
    await expectEnded(plain)
    for (let elapsed = 6 * 20 * HOUR + DAY; elapsed + 20 * DAY < 90 * DAY; elapsed += 20 * DAY) {
      later(20 * DAY)
      expect((await me(remembered)).statusCode).toBe(200)
    }
    later(20 * DAY)
    await expectEnded(remembered)
  })
})

describe('the sweep', () => {
  it('deletes sessions that ended without another request, announces them, and keeps the rest', async () => {
    const idle = await signIn(member.user.username, member.password, false)
    const busy = await signIn(member.user.username, member.password, false)
    const remembered = await signIn(member.user.username, member.password, true)
    const idleId = (await rowOf(idle))!.id
    later(20 * HOUR)
    expect((await me(busy)).statusCode).toBe(200)
    later(5 * HOUR)
    revoked.length = 0
    const ended = await t.app.services.sessions.sweepEnded()
    expect(ended).toBeGreaterThanOrEqual(1)
    expect(revoked).toContain(idleId)
    expect(await rowOf(idle)).toBeUndefined()
    expect(await rowOf(busy)).toBeDefined()
    expect(await rowOf(remembered)).toBeDefined()
    expect((await me(busy)).statusCode).toBe(200)
    expect((await me(remembered)).statusCode).toBe(200)
  })
})

describe('expiry on the cached session', () => {
  let cached: FastifyInstance
  beforeAll(async () => {
    cached = await buildTestApp(t.database, { caches: true, clock })
  })
  afterAll(async () => {
    await cached.close()
  })

  it('is decided without reading the session again: a cache hit costs no statement, an expired one only its delete', async () => {
    const token = await signIn(member.user.username, member.password, false, cached)
    expect((await me(token, cached)).statusCode).toBe(200)

    // Only the request's own statements: not those of work an earlier request left running (a delayed push).
    let counter = countStatements(t.database.handle.db)
    const hit = await me(token, cached)
    counter.stop()
    expect(hit.statusCode).toBe(200)
    expect(counter.of(String(hit.headers['x-request-id']))).toEqual([])

    later(DAY)
    counter = countStatements(t.database.handle.db)
    const res = await me(token, cached)
    counter.stop()
    expect(res.statusCode).toBe(401)
    const own = counter.of(String(res.headers['x-request-id']))
    expect(own).toHaveLength(1)
    expect(own[0]).toMatch(/^delete from "sessions"/)
    expect(await rowOf(token)).toBeUndefined()
  })
})
