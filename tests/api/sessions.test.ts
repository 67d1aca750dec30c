import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { sessions } from '../../server/db/schema'
import { hashToken } from '../../server/modules/auth/tokens'
import { api, type AuthResponse, type ErrorBody, registerMember, useTestApp, loginBody } from './harness'

const t = useTestApp()

const login = (username: string, password: string, headers?: Record<string, string>) =>
  api(t.app, 'POST', '/api/auth/login', { body: loginBody(username, password), headers })
const me = (token: string) => api(t.app, 'GET', '/api/auth/me', { token })

let member: Awaited<ReturnType<typeof registerMember>>
beforeAll(async () => {
  member = await registerMember(t.app, { username: 'Mixed_Case_Member' })
})

describe('login', () => {
  it.each([
    ['username', () => member.user.username],
    ['username in another case', () => member.user.username.toLowerCase()],
    ['email', () => member.user.email],
    ['email in another case', () => member.user.email.toUpperCase()],
    ['username with surrounding spaces', () => `  ${member.user.username} `],
  ])('accepts the %s', async (_name, identifier) => {
    const res = await login(identifier(), member.password)
    expect(res.statusCode).toBe(200)
    const json = res.json<AuthResponse>()
    expect(json.user.id).toBe(member.user.id)
    expect(json.privateKey).toBeNull()
    expect(json.token).not.toBe(member.token)
    expect(res.body).not.toContain('argon2')
    expect((await me(json.token)).statusCode).toBe(200)
  })

  it('answers a wrong password and an unknown account identically', async () => {
    const wrong = await login(member.user.username, 'Wrong-password-1')
    const unknown = await login('nobody_here', 'Wrong-password-1')
    const unknownEmail = await login('nobody@example.test', 'Wrong-password-1')
    for (const res of [wrong, unknown, unknownEmail]) {
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ error: 'Invalid username or password' })
    }
  })

  it('takes about as long for an unknown account as for a wrong password', async () => {
    const time = async (username: string) => {
      const started = performance.now()
      await login(username, 'Wrong-password-1')
      return performance.now() - started
    }
    await time('warm_up_unknown') // the dummy hash is made on first use
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
    const wrong: number[] = []
    const unknown: number[] = []
    for (let i = 0; i < 7; i += 1) {
      wrong.push(await time(member.user.username))
      unknown.push(await time(`nobody_${i}`))
    }
    // Without the dummy verification an unknown name answers in ~1 ms against ~80 ms for a real check (a ratio under
    // 0.02); a quarter leaves room for a loaded machine without letting that difference through.
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.25)
  })

  it('refuses missing fields with 400', async () => {
    const res = await api(t.app, 'POST', '/api/auth/login', { body: { username: member.user.username } })
    expect(res.statusCode).toBe(400)
    expect(res.json<ErrorBody>().error).toBe('Send exactly one of authSecret and password')
  })

  it('refuses the password of an account that derives secrets, as a wrong one', async () => {
    const res = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: member.user.username, password: member.password },
    })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: 'Invalid username or password' })
  })

  it('records the user agent of the new session', async () => {
    const res = await login(member.user.username, member.password, { 'user-agent': 'WrenTest/1.0' })
    const token = res.json<AuthResponse>().token
    const [row] = await t.database.handle.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token)))
    expect(row?.userAgent).toBe('WrenTest/1.0')
    expect(row?.userId).toBe(member.user.id)
  })

  it('stores only the SHA-256 of a token', async () => {
    const res = await login(member.user.username, member.password)
    const token = res.json<AuthResponse>().token
    const rows = await t.database.handle.db.select().from(sessions)
    expect(rows.some((r) => r.tokenHash === token)).toBe(false)
    expect(rows.some((r) => r.tokenHash === hashToken(token))).toBe(true)
  })
})

describe('bearer authentication', () => {
  it('answers 401 "Authentication required" without a token', async () => {
    const res = await api(t.app, 'GET', '/api/auth/me')
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: 'Authentication required' })
  })

  it('answers 401 "Authentication required" for a non-bearer scheme', async () => {
    const res = await api(t.app, 'GET', '/api/auth/me', { headers: { authorization: `Basic ${member.token}` } })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: 'Authentication required' })
  })

  it.each([
    ['an unknown token', 'A'.repeat(43)],
    ['a malformed token', 'not a token'],
  ])('answers 401 "Session expired or revoked" for %s', async (_name, token) => {
    const res = await me(token)
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: 'Session expired or revoked' })
  })

  it('checks the token before the body: an anonymous bad request is 401, not 400', async () => {
    const res = await api(t.app, 'POST', '/api/auth/change-password', { body: { nonsense: true } })
    expect(res.statusCode).toBe(401)
  })

  it('updates last_seen_at at most once a minute', async () => {
    const { db } = t.database.handle
    const where = eq(sessions.tokenHash, hashToken(member.token))
    const old = new Date(Date.now() - 5 * 60_000)
    await db.update(sessions).set({ lastSeenAt: old }).where(where)
    await me(member.token)
    // The touch is written beside the request, not before its answer.
    await t.app.services.sessions.touched()
    const [touched] = await db.select().from(sessions).where(where)
    expect(touched!.lastSeenAt.getTime()).toBeGreaterThan(old.getTime())

    const recent = new Date(Date.now() - 10_000)
    await db.update(sessions).set({ lastSeenAt: recent }).where(where)
    await me(member.token)
    await t.app.services.sessions.touched()
    const [untouched] = await db.select().from(sessions).where(where)
    expect(untouched!.lastSeenAt.getTime()).toBe(recent.getTime())
  })

  it('gathers the last-used writes of several sessions and makes them together, after the answers', async () => {
    const { db } = t.database.handle
    const one = await registerMember(t.app, { username: 'gathered_touch_1' })
    const two = await registerMember(t.app, { username: 'gathered_touch_2' })
    // New sessions, never resolved yet: their first request reads last_seen_at from the table.
    const tokens = await Promise.all(
      [one, two].map(async (m) => (await login(m.user.username, m.password)).json<AuthResponse>().token),
    )
    const old = new Date(Date.now() - 5 * 60_000)
    const rows = () =>
      Promise.all(tokens.map(async (token) => (await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token))))[0]))
    for (const token of tokens) {
      await db.update(sessions).set({ lastSeenAt: old, lastIp: null }).where(eq(sessions.tokenHash, hashToken(token)))
    }
    for (const token of tokens) expect((await me(token)).statusCode).toBe(200)
    // Both answered while their writes wait to be gathered (SessionTouches: up to a second).
    for (const row of await rows()) expect(row!.lastSeenAt.getTime()).toBe(old.getTime())
    await t.app.services.sessions.touched()
    for (const row of await rows()) {
      expect(row!.lastSeenAt.getTime()).toBeGreaterThan(old.getTime())
      expect(row!.lastIp).not.toBeNull()
    }
  })
})

describe('logout', () => {
  it('revokes the token it was called with, and only that one', async () => {
    const a = (await login(member.user.username, member.password)).json<AuthResponse>().token
    const b = (await login(member.user.username, member.password)).json<AuthResponse>().token
    const res = await api(t.app, 'POST', '/api/auth/logout', { token: a })
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    const after = await me(a)
    expect(after.statusCode).toBe(401)
    expect(after.json()).toEqual({ error: 'Session expired or revoked' })
    expect((await me(b)).statusCode).toBe(200)
    expect((await api(t.app, 'POST', '/api/auth/logout', { token: a })).statusCode).toBe(401)
  })
})

describe('me', () => {
  it('answers the current member without secrets', async () => {
    const res = await me(member.token)
    expect(res.statusCode).toBe(200)
    expect(res.json<{ user: AuthResponse['user'] }>().user).toEqual(member.user)
    expect(res.body).not.toMatch(/argon2|password|token/i)
  })
})
