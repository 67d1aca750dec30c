import type { FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { api, type AuthResponse, type ErrorBody, loginBody, registerMember, useTestApp } from './harness'

/** A member's own sessions: listed with what identifies them, revoked one by one or all but the caller's. */

type Session = Schemas['Session']
type Page = Schemas['SessionsResponse']

let now = Date.UTC(2026, 10, 27, 12)
const clock = { now: () => now }
const t = useTestApp({ clock })

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15'

async function signIn(
  member: { user: { username: string }; password: string },
  from: { userAgent?: string; ip?: string; app?: FastifyInstance } = {},
) {
  const res = await (from.app ?? t.app).inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { ...loginBody(member.user.username, member.password), remember: true },
    headers: from.userAgent ? { 'user-agent': from.userAgent } : {},
    ...(from.ip ? { remoteAddress: from.ip } : {}),
  })
  expect(res.statusCode).toBe(200)
  return res.json<AuthResponse>().token
}

const list = (token: string, query = '') => api(t.app, 'GET', `/api/auth/sessions${query}`, { token })
const listed = async (token: string, query = '') => {
  const res = await list(token, query)
  expect(res.statusCode).toBe(200)
  return res.json<Page>()
}
const me = (token: string) => api(t.app, 'GET', '/api/auth/me', { token })

describe('listing', () => {
  it("shows the member's sessions with browser, system and addresses, the caller's first, then by last use", async () => {
    const member = await registerMember(t.app)
    const firefox = await signIn(member, { userAgent: FIREFOX, ip: '203.0.113.5' })
    now += 60_000
    const safari = await signIn(member, { userAgent: SAFARI_MAC, ip: '198.51.100.7' })
    now += 60_000
    const bare = await signIn(member, { ip: '2001:db8::1' })
    now += 2 * 60_000
    // Firefox is used again from elsewhere: its last use and address move, its sign-in address stays.
    const used = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${firefox}` }, remoteAddress: '203.0.113.99' })
    expect(used.statusCode).toBe(200)
    await t.app.services.sessions.touched()
    now += 60_000

    const page = await listed(safari)
    expect(page.nextCursor).toBeNull()
    expect(page.sessions.map((s) => [s.browser, s.os, s.current])).toEqual([
      ['Safari 17', 'macOS', true],
      ['Firefox 133', 'Windows 10', false],
      ['Unknown browser', 'Unknown OS', false],
      // The registration's session (the test's own user agent is none a person would recognise).
      ['Unknown browser', 'Unknown OS', false],
    ])
    const firefoxRow = page.sessions[1] as Session
    expect(firefoxRow).toMatchObject({ createdIp: '203.0.113.5', lastIp: '203.0.113.99' })
    expect(new Date(firefoxRow.lastSeenAt).getTime()).toBe(now - 60_000)
    expect(new Date(firefoxRow.createdAt).getTime()).toBe(now - 5 * 60_000)
    expect(new Date(firefoxRow.expiresAt).getTime()).toBe(now - 5 * 60_000 + 90 * 24 * 3600_000)
    expect(page.sessions[2]).toMatchObject({ createdIp: '2001:db8::1', lastIp: '2001:db8::1' })
    expect(JSON.stringify(page)).not.toMatch(/token|hash/i)
    expect((await listed(bare)).sessions[0]?.current).toBe(true)
  })

  it("never lists another member's sessions", async () => {
    const a = await registerMember(t.app)
    const b = await registerMember(t.app)
    await signIn(b)
    const page = await listed(a.token)
    expect(page.sessions).toHaveLength(1)
    expect(page.sessions[0]?.current).toBe(true)
  })

  it('pages with the cursor and with page/limit, the current session only once', async () => {
    const member = await registerMember(t.app)
    for (let i = 0; i < 4; i += 1) {
      now += 60_000
      await signIn(member)
    }
    const all = (await listed(member.token, '?limit=20')).sessions.map((s) => s.id)
    expect(all).toHaveLength(5)
    for (const limit of [1, 2, 3]) {
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const page: Page = await listed(member.token, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
        seen.push(...page.sessions.map((s) => s.id))
        cursor = page.nextCursor
      } while (cursor)
      expect(seen).toEqual(all)
      const byPage: string[] = []
      for (let p = 1; p <= Math.ceil(5 / limit); p += 1) {
        byPage.push(...(await listed(member.token, `?limit=${limit}&page=${p}`)).sessions.map((s) => s.id))
      }
      expect(byPage).toEqual(all)
    }
  })

  it('leaves out sessions that have ended but are not swept yet', async () => {
    const member = await registerMember(t.app)
    const res = await api(t.app, 'POST', '/api/auth/login', { body: loginBody(member.user.username, member.password) })
    const plain = res.json<AuthResponse>().token
    expect((await listed(member.token)).sessions).toHaveLength(2)
    now += 25 * 3600_000
    expect((await listed(member.token)).sessions).toHaveLength(1)
    expect((await me(plain)).statusCode).toBe(401)
  })

  it('needs a session', async () => {
    expect((await api(t.app, 'GET', '/api/auth/sessions')).statusCode).toBe(401)
  })
})

describe('revoking', () => {
  it('ends one other session at once; the caller and the rest stay', async () => {
    const member = await registerMember(t.app)
    const other = await signIn(member)
    const third = await signIn(member)
    expect((await me(other)).statusCode).toBe(200)
    const otherId = (await listed(other)).sessions[0]!.id
    const res = await api(t.app, 'DELETE', `/api/auth/sessions/${otherId}`, { token: member.token })
    expect(res.statusCode).toBe(204)
    expect((await me(other)).statusCode).toBe(401)
    expect((await me(member.token)).statusCode).toBe(200)
    expect((await me(third)).statusCode).toBe(200)
    const again = await api(t.app, 'DELETE', `/api/auth/sessions/${otherId}`, { token: member.token })
    expect(again.statusCode).toBe(404)
  })

  it("answers 404 for another member's session, exactly as for one that does not exist, and leaves it running", async () => {
    const a = await registerMember(t.app)
    const b = await registerMember(t.app)
    const bId = (await listed(b.token)).sessions[0]!.id
    const theirs = await api(t.app, 'DELETE', `/api/auth/sessions/${bId}`, { token: a.token })
    const none = await api(t.app, 'DELETE', '/api/auth/sessions/0190a0a0-0000-7000-8000-000000000000', { token: a.token })
    expect(theirs.statusCode).toBe(404)
    expect(none.statusCode).toBe(404)
    expect(theirs.json<ErrorBody>()).toEqual(none.json<ErrorBody>())
    expect(theirs.json<ErrorBody>().error).toBe('Session not found')
    const notAnId = await api(t.app, 'DELETE', '/api/auth/sessions/not-a-session', { token: a.token })
    expect(notAnId.statusCode).toBe(404)
    expect(notAnId.json<ErrorBody>()).toEqual(none.json<ErrorBody>())
    expect((await me(b.token)).statusCode).toBe(200)
  })

  it('revoking the current session signs the caller out', async () => {
    const member = await registerMember(t.app)
    const id = (await listed(member.token)).sessions[0]!.id
    expect((await api(t.app, 'DELETE', `/api/auth/sessions/${id}`, { token: member.token })).statusCode).toBe(204)
    expect((await me(member.token)).statusCode).toBe(401)
  })

  it('"sign out all other sessions" keeps only the caller, and no other member is touched', async () => {
    const member = await registerMember(t.app)
    const stranger = await registerMember(t.app)
    const others = [await signIn(member), await signIn(member)]
    const res = await api(t.app, 'POST', '/api/auth/sessions/revoke-others', { token: member.token })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ revoked: 2 })
    for (const token of others) expect((await me(token)).statusCode).toBe(401)
    expect((await me(member.token)).statusCode).toBe(200)
    expect((await me(stranger.token)).statusCode).toBe(200)
    expect((await listed(member.token)).sessions).toHaveLength(1)
    const none = await api(t.app, 'POST', '/api/auth/sessions/revoke-others', { token: member.token })
    expect(none.json()).toEqual({ revoked: 0 })
  })
})
