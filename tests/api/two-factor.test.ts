import { sql } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { selectRows } from '../../server/db/rows'
import { waitText } from '../../server/lib/rate-limiter'
import {
  api,
  type AuthResponse,
  type ErrorBody,
  loginBody,
  passwordChange,
  registerMember,
  authSecretOf,
  useTestApp,
} from './harness'

// docs/product.md, "Two-factor sign-in"; docs/security.md, "Two-factor sign-in". The clock is Date, faked and frozen
// in the middle of a 30-second step, so "the code of the step before" means exactly that; the limiter counts on the
// same clock, so a test can wait out its window.
const t = useTestApp({
  config: {
    rateLimits: true,
    loginLimitPerIp: { max: 10_000, windowMs: 15 * 60_000 },
    loginLimitPerAccount: { max: 1_000, windowMs: 15 * 60_000 },
    registerLimitPerIp: { max: 10_000, windowMs: 60 * 60_000 },
    secondFactorLimitPerAccount: { max: 5, windowMs: 15 * 60_000 },
  },
})

const STEP_MS = 30_000
// A fixed instant 10 s into a step.
const START = Date.UTC(2026, 10, 27, 6, 0, 10)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: START })
})
afterEach(() => {
  vi.useRealTimers()
})

/** What the member's authenticator app shows at `now + offsetSteps` steps. */
function codeOf(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 })
  return totp.generate({ timestamp: Date.now() + offsetSteps * STEP_MS })
}
const nextStep = () => vi.setSystemTime(Date.now() + STEP_MS)

type Member = Awaited<ReturnType<typeof registerMember>>
const proof = (member: Member, code: string) => ({ code, currentAuthSecret: authSecretOf(member.password) })

async function setUp(member: Member): Promise<string> {
  const res = await api(t.app, 'POST', '/api/auth/two-factor/setup', { token: member.token })
  expect(res.statusCode).toBe(200)
  const { secret, uri } = res.json<{ secret: string; uri: string }>()
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  expect(uri).toContain(`secret=${secret}`)
  expect(uri).toContain('issuer=Wren')
  expect(uri).toContain(`otpauth://totp/Wren:${member.user.username}`)
  return secret
}

/** A member with 2FA on: their secret and recovery codes. The enabling code's step is spent, so the clock moves on. */
async function withTwoFactor(): Promise<{ member: Member; secret: string; recoveryCodes: string[] }> {
  const member = await registerMember(t.app)
  const secret = await setUp(member)
  const res = await api(t.app, 'POST', '/api/auth/two-factor/enable', { token: member.token, body: proof(member, codeOf(secret)) })
  expect(res.statusCode, res.body).toBe(200)
  const body = res.json<{ user: AuthResponse['user']; recoveryCodes: string[] }>()
  expect(body.user.twoFactorEnabled).toBe(true)
  nextStep()
  return { member, secret, recoveryCodes: body.recoveryCodes }
}

const login = (member: Member, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: loginBody(member.user.username, member.password) })

async function ticketOf(member: Member): Promise<string> {
  const res = await login(member)
  expect(res.statusCode).toBe(200)
  const body = res.json<{ secondFactor: { ticket: string; expiresAt: string } }>()
  expect(Object.keys(body)).toEqual(['secondFactor'])
  return body.secondFactor.ticket
}

const secondStep = (ticket: string, code: string) =>
  api(t.app, 'POST', '/api/auth/login/second-factor', { body: { ticket, code } })

const db = () => t.app.services.db

describe('setting up and enabling', () => {
  it('turns on with a current code and the password, and answers ten recovery codes once', async () => {
    const member = await registerMember(t.app)
    expect(member.user.twoFactorEnabled).toBe(false)
    const secret = await setUp(member)
    const res = await api(t.app, 'POST', '/api/auth/two-factor/enable', { token: member.token, body: proof(member, codeOf(secret)) })
    expect(res.statusCode).toBe(200)
    const { recoveryCodes } = res.json<{ recoveryCodes: string[] }>()
    expect(recoveryCodes).toHaveLength(10)
    expect(new Set(recoveryCodes).size).toBe(10)
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/)
    const me = await api(t.app, 'GET', '/api/auth/me', { token: member.token })
    expect(me.json<{ user: { twoFactorEnabled: boolean } }>().user.twoFactorEnabled).toBe(true)
    // Only hashes are kept.
    const stored = await selectRows<{ code_hash: string }>(db(), sql`select code_hash from recovery_codes where user_id = ${member.user.id}`)
    expect(stored).toHaveLength(10)
    for (const { code_hash } of stored) expect(recoveryCodes.join()).not.toContain(code_hash)
  })

  it('refuses a wrong code and a wrong password, and stays off', async () => {
    const member = await registerMember(t.app)
    const secret = await setUp(member)
    const wrongCode = await api(t.app, 'POST', '/api/auth/two-factor/enable', { token: member.token, body: proof(member, '000000') })
    expect(wrongCode.statusCode).toBe(400)
    expect(wrongCode.json<ErrorBody>()).toEqual({ error: 'Invalid code' })
    const wrongPassword = await api(t.app, 'POST', '/api/auth/two-factor/enable', {
      token: member.token,
      body: { code: codeOf(secret), currentAuthSecret: authSecretOf('Not-my-pass-1') },
    })
    expect(wrongPassword.statusCode).toBe(400)
    expect(wrongPassword.json<ErrorBody>()).toEqual({ error: 'Current password is incorrect' })
    const res = await login(member)
    expect(res.json<AuthResponse>().token).toEqual(expect.any(String))
  })

  it('refuses enabling without a set-up secret, and a second setup once on', async () => {
    const member = await registerMember(t.app)
    const none = await api(t.app, 'POST', '/api/auth/two-factor/enable', { token: member.token, body: proof(member, '123456') })
    expect(none.statusCode).toBe(409)
    expect(none.json<ErrorBody>()).toEqual({ error: 'Set up two-factor sign-in first' })
    const { member: on } = await withTwoFactor()
    const again = await api(t.app, 'POST', '/api/auth/two-factor/setup', { token: on.token })
    expect(again.statusCode).toBe(409)
    expect(again.json<ErrorBody>()).toEqual({ error: 'Two-factor sign-in is already on' })
  })

  it('replaces a set-up secret never enabled: only the newest one enables', async () => {
    const member = await registerMember(t.app)
    const first = await setUp(member)
    const second = await setUp(member)
    expect(second).not.toBe(first)
    const old = await api(t.app, 'POST', '/api/auth/two-factor/enable', { token: member.token, body: proof(member, codeOf(first)) })
    expect(old.statusCode).toBe(400)
    const res = await api(t.app, 'POST', '/api/auth/two-factor/enable', { token: member.token, body: proof(member, codeOf(second)) })
    expect(res.statusCode).toBe(200)
  })
})

describe('signing in', () => {
  it('asks for a code after the password, with no token, user or key before it', async () => {
    const { member, secret } = await withTwoFactor()
    const res = await login(member)
    expect(res.statusCode).toBe(200)
    const body = res.json<{ secondFactor: { ticket: string; expiresAt: string } }>()
    expect(Object.keys(body)).toEqual(['secondFactor'])
    expect(new Date(body.secondFactor.expiresAt).getTime()).toBe(Date.now() + 5 * 60_000)
    const done = await secondStep(body.secondFactor.ticket, codeOf(secret))
    expect(done.statusCode).toBe(200)
    const auth = done.json<AuthResponse>()
    expect(auth.user.id).toBe(member.user.id)
    expect(auth.privateKey).toBe(member.privateKey)
    expect((await api(t.app, 'GET', '/api/auth/me', { token: auth.token })).statusCode).toBe(200)
    // The ticket is spent with the sign-in.
    nextStep()
    const again = await secondStep(body.secondFactor.ticket, codeOf(secret))
    expect(again.statusCode).toBe(401)
    expect(again.json<ErrorBody>()).toEqual({ error: 'Your sign-in took too long; sign in again' })
  })

  it('keeps the wrong password answer as it was', async () => {
    const { member } = await withTwoFactor()
    const res = await api(t.app, 'POST', '/api/auth/login', { body: loginBody(member.user.username, 'Not-my-pass-1') })
    expect(res.statusCode).toBe(401)
    expect(res.json<ErrorBody>()).toEqual({ error: 'Invalid username or password' })
  })

  it('says a wrong code is wrong, and the ticket stays for another try', async () => {
    const { member, secret } = await withTwoFactor()
    const ticket = await ticketOf(member)
    const wrong = await secondStep(ticket, codeOf(secret, 3))
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json<ErrorBody>()).toEqual({ error: 'Invalid code' })
    expect((await secondStep(ticket, codeOf(secret))).statusCode).toBe(200)
  })

  it('accepts the codes of the step before and after, and refuses two steps away', async () => {
    const { member, secret } = await withTwoFactor()
    // Past the enabling code's step, so the step before now was never used.
    nextStep()
    for (const offset of [-2, 2]) {
      const res = await secondStep(await ticketOf(member), codeOf(secret, offset))
      expect(res.statusCode, `${offset} steps`).toBe(401)
    }
    expect((await secondStep(await ticketOf(member), codeOf(secret, -1))).statusCode).toBe(200)
    // The step before was accepted; the current one is later, so it is accepted too, and then the one after.
    expect((await secondStep(await ticketOf(member), codeOf(secret, 0))).statusCode).toBe(200)
    expect((await secondStep(await ticketOf(member), codeOf(secret, 1))).statusCode).toBe(200)
  })

  it('never accepts a code twice, nor an earlier step once a later one was used', async () => {
    const { member, secret } = await withTwoFactor()
    const code = codeOf(secret)
    expect((await secondStep(await ticketOf(member), code)).statusCode).toBe(200)
    const reused = await secondStep(await ticketOf(member), code)
    expect(reused.statusCode).toBe(401)
    expect(reused.json<ErrorBody>()).toEqual({ error: 'Invalid code' })
    const earlier = await secondStep(await ticketOf(member), codeOf(secret, -1))
    expect(earlier.statusCode).toBe(401)
  })

  it('lets only one of two concurrent submissions of one code through', async () => {
    const { member, secret } = await withTwoFactor()
    const [a, b] = [await ticketOf(member), await ticketOf(member)]
    const code = codeOf(secret)
    const answers = await Promise.all([secondStep(a, code), secondStep(b, code)])
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401])
  })

  it('accepts a recovery code once, in any case and with or without the dash', async () => {
    const { member, recoveryCodes } = await withTwoFactor()
    const [first, second] = recoveryCodes as [string, string]
    expect((await secondStep(await ticketOf(member), first)).statusCode).toBe(200)
    const spent = await secondStep(await ticketOf(member), first)
    expect(spent.statusCode).toBe(401)
    expect(spent.json<ErrorBody>()).toEqual({ error: 'Invalid code' })
    expect((await secondStep(await ticketOf(member), ` ${second.replace('-', '').toUpperCase()} `)).statusCode).toBe(200)
  })

  it('lets two concurrent uses of one recovery code sign in once', async () => {
    const { member, recoveryCodes } = await withTwoFactor()
    const [a, b] = [await ticketOf(member), await ticketOf(member)]
    const answers = await Promise.all([secondStep(a, recoveryCodes[0]!), secondStep(b, recoveryCodes[0]!)])
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401])
  })

  it('refuses a ticket after 5 minutes, an unknown one, and a code of another account', async () => {
    const { member, secret } = await withTwoFactor()
    const { member: other, secret: otherSecret } = await withTwoFactor()
    const ticket = await ticketOf(member)
    // Another account's code does not finish this account's sign-in.
    const foreign = await secondStep(ticket, codeOf(otherSecret))
    expect(foreign.statusCode).toBe(401)
    expect(foreign.json<ErrorBody>()).toEqual({ error: 'Invalid code' })
    // The other account's ticket signs in only the other account.
    const theirs = await secondStep(await ticketOf(other), codeOf(otherSecret))
    expect(theirs.json<AuthResponse>().user.id).toBe(other.user.id)
    vi.setSystemTime(Date.now() + 5 * 60_000 + 1)
    const late = await secondStep(ticket, codeOf(secret))
    expect(late.statusCode).toBe(401)
    expect(late.json<ErrorBody>()).toEqual({ error: 'Your sign-in took too long; sign in again' })
    const unknown = await secondStep('x'.repeat(43), codeOf(secret))
    expect(unknown.json<ErrorBody>()).toEqual({ error: 'Your sign-in took too long; sign in again' })
  })

  it('drops a sign-in waiting for its code when the password changes meanwhile', async () => {
    const { member, secret } = await withTwoFactor()
    const ticket = await ticketOf(member)
    const change = await api(t.app, 'POST', '/api/auth/change-password', {
      token: member.token,
      body: passwordChange(member.password, 'Brand-New-Pass-8', { privateKey: member.privateKey ?? undefined }),
    })
    expect(change.statusCode, change.body).toBe(200)
    const res = await secondStep(ticket, codeOf(secret))
    expect(res.statusCode).toBe(401)
    expect(res.json<ErrorBody>()).toEqual({ error: 'Your sign-in took too long; sign in again' })
  })

  it('locks the second step after 5 wrong codes in 15 minutes, even for the right code, then lets it go', async () => {
    const { member, secret } = await withTwoFactor()
    const ticket = await ticketOf(member)
    for (let i = 0; i < 5; i += 1) expect((await secondStep(ticket, '000000')).statusCode).toBe(401)
    const locked = await secondStep(ticket, codeOf(secret))
    expect(locked.statusCode).toBe(429)
    const retryAfter = Number(locked.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(14 * 60)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    expect(locked.json<ErrorBody>()).toEqual({ error: `Too many wrong codes. Try again in ${waitText(retryAfter)}.` })
    // A fresh ticket (the password is still right) does not help: the lock is the account's.
    expect((await secondStep(await ticketOf(member), codeOf(secret))).statusCode).toBe(429)
    // Other accounts are not locked.
    const { member: other, secret: otherSecret } = await withTwoFactor()
    expect((await secondStep(await ticketOf(other), codeOf(otherSecret))).statusCode).toBe(200)
    vi.setSystemTime(Date.now() + 15 * 60_000)
    expect((await secondStep(await ticketOf(member), codeOf(secret))).statusCode).toBe(200)
  })
})

describe('disabling and new recovery codes', () => {
  it('counts wrong codes in Settings in the same lock as the sign-in', async () => {
    const { member, secret } = await withTwoFactor()
    const disable = (code: string) =>
      api(t.app, 'POST', '/api/auth/two-factor/disable', { token: member.token, body: proof(member, code) })
    for (let i = 0; i < 5; i += 1) expect((await disable('000000')).statusCode).toBe(400)
    const locked = await disable(codeOf(secret))
    expect(locked.statusCode).toBe(429)
    expect(locked.json<ErrorBody>().error).toMatch(/^Too many wrong codes\. Try again in/)
    expect((await secondStep(await ticketOf(member), codeOf(secret))).statusCode).toBe(429)
    // Still on: nothing was turned off by the refused tries.
    const me = await api(t.app, 'GET', '/api/auth/me', { token: member.token })
    expect(me.json<{ user: { twoFactorEnabled: boolean } }>().user.twoFactorEnabled).toBe(true)
  })


  it('turns off with the password and a code; the next sign-in asks for the password only', async () => {
    const { member, secret } = await withTwoFactor()
    const noCode = await api(t.app, 'POST', '/api/auth/two-factor/disable', { token: member.token, body: proof(member, '000000') })
    expect(noCode.statusCode).toBe(400)
    expect(noCode.json<ErrorBody>()).toEqual({ error: 'Invalid code' })
    const res = await api(t.app, 'POST', '/api/auth/two-factor/disable', { token: member.token, body: proof(member, codeOf(secret)) })
    expect(res.statusCode).toBe(200)
    expect(res.json<{ user: { twoFactorEnabled: boolean } }>().user.twoFactorEnabled).toBe(false)
    expect((await login(member)).json<AuthResponse>().token).toEqual(expect.any(String))
    const rows = await selectRows(db(), sql`select 1 from recovery_codes where user_id = ${member.user.id}
      union all select 1 from two_factor where user_id = ${member.user.id}`)
    expect(rows).toHaveLength(0)
    const again = await api(t.app, 'POST', '/api/auth/two-factor/disable', { token: member.token, body: proof(member, codeOf(secret, 1)) })
    expect(again.statusCode).toBe(409)
  })

  it('turns off with a recovery code in place of the app code', async () => {
    const { member, recoveryCodes } = await withTwoFactor()
    const res = await api(t.app, 'POST', '/api/auth/two-factor/disable', { token: member.token, body: proof(member, recoveryCodes[3]!) })
    expect(res.statusCode).toBe(200)
  })

  it('replaces the recovery codes: the old ones stop working, the new ones work', async () => {
    const { member, secret, recoveryCodes } = await withTwoFactor()
    const wrongPassword = await api(t.app, 'POST', '/api/auth/two-factor/recovery-codes', {
      token: member.token,
      body: { code: codeOf(secret), currentAuthSecret: authSecretOf('Not-my-pass-1') },
    })
    expect(wrongPassword.statusCode).toBe(400)
    const res = await api(t.app, 'POST', '/api/auth/two-factor/recovery-codes', { token: member.token, body: proof(member, codeOf(secret)) })
    expect(res.statusCode).toBe(200)
    const fresh = res.json<{ recoveryCodes: string[] }>().recoveryCodes
    expect(fresh).toHaveLength(10)
    expect((await secondStep(await ticketOf(member), recoveryCodes[0]!)).statusCode).toBe(401)
    expect((await secondStep(await ticketOf(member), fresh[0]!)).statusCode).toBe(200)
  })
})

describe('admin reset', () => {
  it('turns a member\'s 2FA off, writes the audit log, and is for admins only', async () => {
    const admin = await registerMember(t.app)
    await db().execute(sql`update users set is_admin = true where id = ${admin.user.id}`)
    const { member, secret } = await withTwoFactor()
    const url = `/api/admin/users/${member.user.id}/two-factor/reset`
    const notAdmin = await api(t.app, 'POST', url, { token: member.token })
    expect(notAdmin.statusCode).toBe(403)
    const res = await api(t.app, 'POST', url, { token: admin.token })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ user: { id: member.user.id, username: member.user.username, twoFactorEnabled: false } })
    expect((await login(member)).json<AuthResponse>().token).toEqual(expect.any(String))
    const log = await api(t.app, 'GET', '/api/admin/audit-log', { token: admin.token })
    const entry = log.json<{ entries: { action: string; details: string; actor: { id: string } }[] }>().entries[0]
    expect(entry).toMatchObject({ action: 'reset-two-factor', details: `Turned off two-factor sign-in of @${member.user.username}` })
    expect(entry?.actor.id).toBe(admin.user.id)
    // The member may set it up again.
    expect(await setUp(member)).not.toBe(secret)
    const unknown = await api(t.app, 'POST', '/api/admin/users/0190a6b2-0000-7000-8000-00000000abcd/two-factor/reset', { token: admin.token })
    expect(unknown.statusCode).toBe(404)
  })
})

describe('the secret', () => {
  it('leaves the server only in the setup answer', async () => {
    const admin = await registerMember(t.app)
    await db().execute(sql`update users set is_admin = true where id = ${admin.user.id}`)
    const { member, secret, recoveryCodes } = await withTwoFactor()
    const bodies: string[] = []
    const keep = async (res: { body: string; statusCode: number }) => {
      bodies.push(res.body)
      return res
    }
    const as = (token: string) => ({ token })
    const ticket = JSON.parse((await keep(await login(member))).body).secondFactor.ticket as string
    const auth = JSON.parse((await keep(await secondStep(ticket, codeOf(secret)))).body) as AuthResponse
    const token = auth.token
    for (const [method, url] of [
      ['GET', '/api/auth/me'],
      ['GET', `/api/users/${member.user.username}`],
      ['GET', '/api/users/profile'],
      ['GET', '/api/users/search?q=' + member.user.username],
      ['POST', '/api/auth/two-factor/setup'],
    ] as const) {
      await keep(await api(t.app, method, url, as(token)))
    }
    nextStep()
    await keep(await api(t.app, 'POST', '/api/auth/two-factor/recovery-codes', { token, body: proof(member, codeOf(secret)) }))
    await keep(await api(t.app, 'POST', '/api/auth/two-factor/disable', { token, body: proof(member, '000000') }))
    await keep(await api(t.app, 'POST', '/api/auth/change-password', { token, body: passwordChange(member.password, 'Brand-New-Pass-7', { privateKey: member.privateKey ?? undefined }) }))
    for (const url of [`/api/users/${member.user.username}`, '/api/admin/audit-log', `/api/users/${member.user.id}/trust-record`]) {
      await keep(await api(t.app, 'GET', url, as(admin.token)))
    }
    await keep(await api(t.app, 'POST', `/api/users/${member.user.id}/recalculate-stats`, as(admin.token)))
    expect(bodies.length).toBeGreaterThan(10)
    const all = bodies.join('\n')
    expect(all).toContain(member.user.username)
    expect(all).not.toContain(secret)
    expect(all.toLowerCase()).not.toContain(secret.toLowerCase())
    for (const code of recoveryCodes) expect(all).not.toContain(code)
  })
})
