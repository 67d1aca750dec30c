import type { FastifyInstance } from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { waitText } from '../../server/lib/rate-limiter'
import { api, type AuthResponse, buildTestApp, type ErrorBody, registration, useTestApp, loginBody, passwordChange, STRONG_PASSWORD } from './harness'

// Small limits so a test can reach them; the window is long enough never to expire during the run.
const t = useTestApp({
  config: {
    rateLimits: true,
    loginLimitPerIp: { max: 5, windowMs: 15 * 60_000 },
    loginLimitPerAccount: { max: 3, windowMs: 15 * 60_000 },
    registerLimitPerIp: { max: 3, windowMs: 60 * 60_000 },
  },
})

let ipCounter = 0
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`

function login(app: FastifyInstance, ip: string, username: string, password: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    payload: loginBody(username, password),
  })
}

/** A member registered from an address of its own, so members made here never reach the registration limit. */
async function newMember() {
  const body = registration()
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: freshIp(), payload: body })
  expect(res.statusCode).toBe(201)
  return { ...res.json<AuthResponse>(), password: STRONG_PASSWORD, email: body.email }
}

function expectLimited(res: Awaited<ReturnType<typeof login>>, what: string) {
  expect(res.statusCode).toBe(429)
  const retryAfter = Number(res.headers['retry-after'])
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(60 * 60)
  expect(res.json<ErrorBody>()).toEqual({ error: `Too many ${what}. Try again in ${waitText(retryAfter)}.` })
}

describe('login limits', () => {
  it('locks an account after its failed attempts, from any address, even with the right password', async () => {
    const member = await newMember()
    for (let i = 0; i < 3; i += 1) {
      expect((await login(t.app, freshIp(), member.user.username, 'Wrong-pass-1')).statusCode).toBe(401)
    }
    expectLimited(await login(t.app, freshIp(), member.user.username, 'Wrong-pass-1'), 'login attempts')
    expectLimited(await login(t.app, freshIp(), member.user.username.toUpperCase(), member.password), 'login attempts')
  })

  it('counts failures per account, whether its username or its email was typed', async () => {
    const member = await newMember()
    const email = member.email
    const typed = [member.user.username, email, member.user.username.toUpperCase()]
    for (const name of typed) expect((await login(t.app, freshIp(), name, 'Wrong-pass-1')).statusCode).toBe(401)
    expectLimited(await login(t.app, freshIp(), email.toUpperCase(), 'Wrong-pass-1'), 'login attempts')
    expectLimited(await login(t.app, freshIp(), member.user.username, member.password), 'login attempts')
  })

  it('shares the budget with wrong current passwords on a password change', async () => {
    const member = await newMember()
    const changePassword = () =>
      api(t.app, 'POST', '/api/auth/change-password', {
        token: member.token,
        body: passwordChange('Wrong-pass-1', 'Brand-New-Pass-7'),
      })
    expect((await changePassword()).statusCode).toBe(400)
    expect((await changePassword()).statusCode).toBe(400)
    expect((await login(t.app, freshIp(), member.user.username, 'Wrong-pass-1')).statusCode).toBe(401)
    expectLimited(await login(t.app, freshIp(), member.user.username, member.password), 'login attempts')
  })

  it('limits one address across accounts', async () => {
    const ip = freshIp()
    for (let i = 0; i < 5; i += 1) {
      expect((await login(t.app, ip, `nobody_${i}`, 'Wrong-pass-1')).statusCode).toBe(401)
    }
    expectLimited(await login(t.app, ip, 'nobody_else', 'Wrong-pass-1'), 'login attempts')
    // Another address is not affected.
    expect((await login(t.app, freshIp(), 'nobody_else', 'Wrong-pass-1')).statusCode).toBe(401)
  })

  it('counts an IPv6 /64 as one address', async () => {
    for (let i = 1; i <= 5; i += 1) {
      expect((await login(t.app, `2001:db8:5:6::${i}`, `nobody_v6_${i}`, 'Wrong-pass-1')).statusCode).toBe(401)
    }
    expectLimited(await login(t.app, '2001:db8:5:6:ffff::99', 'nobody_v6', 'Wrong-pass-1'), 'login attempts')
    expect((await login(t.app, '2001:db8:5:7::1', 'nobody_v6', 'Wrong-pass-1')).statusCode).toBe(401)
  })

  it('does not count successful logins', async () => {
    const member = await newMember()
    const ip = freshIp()
    for (let i = 0; i < 8; i += 1) {
      expect((await login(t.app, ip, member.user.username, member.password)).statusCode).toBe(200)
    }
  })
})

describe('prelogin limit', () => {
  it('answers three times the sign-in limit per address (successes count too), then refuses', async () => {
    const ip = freshIp()
    const prelogin = (username: string, remoteAddress = ip) =>
      t.app.inject({ method: 'POST', url: '/api/auth/prelogin', remoteAddress, payload: { username } })
    for (let i = 0; i < 15; i += 1) expect((await prelogin(`anyone_${i}`)).statusCode).toBe(200)
    expectLimited(await prelogin('anyone_else'), 'login attempts')
    expect((await prelogin('anyone_else', freshIp())).statusCode).toBe(200)
  })
})

describe('registration limit', () => {
  it('limits registrations per address', async () => {
    const ip = freshIp()
    const register = () =>
      t.app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: ip, payload: registration() })
    for (let i = 0; i < 3; i += 1) expect((await register()).statusCode).toBe(201)
    expectLimited(await register(), 'registrations from this address')
  })
})

describe('change-password limit', () => {
  it('limits wrong current passwords per member', async () => {
    const member = await newMember()
    const attempt = (currentPassword: string) =>
      api(t.app, 'POST', '/api/auth/change-password', {
        token: member.token,
        body: passwordChange(currentPassword, 'Brand-New-Pass-7'),
      })
    for (let i = 0; i < 3; i += 1) expect((await attempt('Wrong-pass-1')).statusCode).toBe(400)
    expectLimited(await attempt(member.password), 'password change attempts')
  })
})

describe('RATE_LIMITS=off', () => {
  let unlimited: FastifyInstance | undefined
  afterAll(async () => {
    await unlimited?.close()
  })

  it('disables every limit', async () => {
    unlimited = await buildTestApp(t.database, {
      config: { rateLimits: false, loginLimitPerIp: { max: 1, windowMs: 60_000 } },
    })
    const ip = freshIp()
    for (let i = 0; i < 4; i += 1) {
      expect((await login(unlimited, ip, 'nobody', 'Wrong-pass-1')).statusCode).toBe(401)
    }
  })
})
