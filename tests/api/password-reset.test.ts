import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { selectRows } from '../../server/db/rows'
import {
  FORGOT_ACCEPTED,
  RECOVERY_COPY_FORMAT,
  RESET_LINK_INVALID,
  TWO_FACTOR_CODE_REQUIRED,
} from '../../server/modules/password-reset/service'
import { REWRAP_REQUIRED } from '../../server/modules/auth/keys'
import { replaceResetToken } from '../../server/modules/password-reset/queries'
import { CURRENT_PASSWORD_INCORRECT } from '../../server/modules/auth/proof'
import { INVALID_CODE } from '../../src/api/contract/two-factor'
import { fakeKeys, fakeWrappedKey } from './e2ee-support'
import {
  api,
  type AuthResponse,
  authSecretOf,
  buildTestApp,
  type ErrorBody,
  loginBody,
  openTestDatabase,
  passwordChange,
  registerMember,
  testKdf,
  type TestDatabase,
  uniqueName,
} from './harness'
import { startSmtp, type TestSmtp } from './smtp'

// docs/product.md, "Password reset"; docs/security.md, "Password reset and the recovery key". Mail goes through a real
// SMTP server in this process; the app's clock is moved to expire links.

let database: TestDatabase
let smtp: TestSmtp
let app: FastifyInstance
let now = Date.UTC(2026, 10, 27, 12)
const clock = { now: () => now }

beforeAll(async () => {
  database = await openTestDatabase()
  smtp = await startSmtp()
  app = await buildTestApp(database, {
    clock,
    config: {
      smtpUrl: smtp.url,
      publicUrl: 'https://social.example.org',
      rateLimits: true,
      loginLimitPerIp: { max: 10_000, windowMs: 15 * 60_000 },
      loginLimitPerAccount: { max: 1_000, windowMs: 15 * 60_000 },
      registerLimitPerIp: { max: 10_000, windowMs: 60 * 60_000 },
      secondFactorLimitPerAccount: { max: 5, windowMs: 15 * 60_000 },
      forgotLimitPerIp: { max: 10_000, windowMs: 60 * 60_000 },
      forgotLimitPerAccount: { max: 3, windowMs: 60 * 60_000 },
      resetLimitPerIp: { max: 10_000, windowMs: 60 * 60_000 },
      resetLimitPerAccount: { max: 5, windowMs: 60 * 60_000 },
    },
  })
})
afterAll(async () => {
  await app?.close()
  await smtp?.close()
  await database?.close()
})

type Member = Awaited<ReturnType<typeof registerMember>>
const NEW_PASSWORD = 'Brand-New-Pass-7'
const db = () => app.services.db

let ipCounter = 0
/** A client address no other test uses, so per-address limits of one test never touch another. */
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`

const post = (url: string, body: unknown, ip = '127.0.0.1') =>
  app.inject({ method: 'POST', url, remoteAddress: ip, payload: body as Record<string, unknown> })

const forgot = (identifier: string, ip?: string) => post('/api/auth/password/forgot', { identifier }, ip)
const check = (token: string, ip?: string) => post('/api/auth/password/reset/check', { token }, ip)
const reset = (body: Record<string, unknown>, ip?: string) => post('/api/auth/password/reset', body, ip)
const resetBody = (token: string, extra: Record<string, unknown> = {}) => ({
  token,
  newAuthSecret: authSecretOf(NEW_PASSWORD),
  kdf: testKdf(),
  ...extra,
})

/** Asks for a link for the member and reads the token from the mail they receive. */
async function mailedToken(member: Member, identifier = member.user.username): Promise<string> {
  const before = smtp.received.length
  expect((await forgot(identifier, freshIp())).statusCode).toBe(202)
  await app.services.jobs.drain()
  // Registration's "Confirm your email" may go out in the same drain: the reset mail is the one to read.
  const mail = await smtp.waitFor(
    member.user.email,
    (m) => smtp.received.indexOf(m) >= before && (m.subject ?? '').includes('Reset your password'),
  )
  const match = /https:\/\/social\.example\.org\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')
  expect(match, mail.text).not.toBeNull()
  return match![1]!
}

const loginAs = (username: string, password: string) => post('/api/auth/login', loginBody(username, password), freshIp())
const me = (token: string) => api(app, 'GET', '/api/auth/me', { token })
const errorOf = (res: { json: <T>() => T }) => res.json<ErrorBody>().error

/** A wr1-shaped recovery copy: `wr1.`, a random IV and 154 bytes. */
const fakeRecoveryCopy = () => `wr1.${randomBytes(12).toString('base64url')}.${randomBytes(154).toString('base64url')}`

describe('asking for a link', () => {
  it('answers the same for a username, an email and a name no account has, and mails only the member', async () => {
    const member = await registerMember(app)
    const answers = await Promise.all(
      [member.user.username, member.user.email.toUpperCase(), uniqueName('nobody'), 'nobody@example.test'].map(async (name) => {
        const res = await forgot(name, freshIp())
        return { status: res.statusCode, body: res.json() }
      }),
    )
    for (const answer of answers) expect(answer).toEqual({ status: 202, body: { message: FORGOT_ACCEPTED } })
    await app.services.jobs.drain()
    await smtp.waitFor(member.user.email, (m) => (m.subject ?? '').includes('Reset your password'))
    // Two requests (username and email), one pending job: the second enqueue per name is its own job, but only the
    // newest link of the member works.
    const tokens = await selectRows<{ user_id: string }>(db(), sql`select user_id from password_reset_tokens where user_id = ${member.user.id}`)
    expect(tokens).toHaveLength(1)
    expect(smtp.received.some((m) => m.text?.includes('nobody@example.test'))).toBe(false)
  })

  it('keeps one live link when many are made at once (PostgreSQL runs the jobs side by side)', async () => {
    const member = await registerMember(app)
    const expiresAt = new Date(Date.now() + 3_600_000)
    await Promise.all(
      Array.from({ length: 8 }, () => replaceResetToken(app.services.db, member.user.id, randomBytes(32).toString('hex'), expiresAt)),
    )
    const tokens = await selectRows<{ user_id: string }>(db(), sql`select user_id from password_reset_tokens where user_id = ${member.user.id}`)
    expect(tokens).toHaveLength(1)
  })

  it('stores only a hash of the token', async () => {
    const member = await registerMember(app)
    const token = await mailedToken(member)
    const rows = await selectRows<{ token_hash: string }>(db(), sql`select token_hash from password_reset_tokens where user_id = ${member.user.id}`)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.token_hash).not.toContain(token)
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('limits requests per typed name, for real and unknown names alike', async () => {
    const member = await registerMember(app)
    for (const name of [member.user.username, uniqueName('ghost')]) {
      for (let i = 0; i < 3; i++) expect((await forgot(name, freshIp())).statusCode).toBe(202)
      const refused = await forgot(name, freshIp())
      expect(refused.statusCode).toBe(429)
      expect(refused.headers['retry-after']).toBeDefined()
    }
  })

  it('refuses an empty identifier', async () => {
    const res = await forgot('   ', freshIp())
    expect(res.statusCode).toBe(400)
  })
})

describe('the link', () => {
  it('tells the reset screen the username, the keys and whether a code is needed, and nothing for a made-up token', async () => {
    const member = await registerMember(app, fakeKeys())
    const token = await mailedToken(member)
    const res = await check(token, freshIp())
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      username: member.user.username,
      publicKey: member.user.publicKey,
      recoveryKey: null,
      twoFactorEnabled: false,
    })
    for (const bad of [randomBytes(32).toString('base64url'), 'short']) {
      const refused = await check(bad, freshIp())
      expect(refused.statusCode).toBe(400)
      expect(errorOf(refused)).toBe(RESET_LINK_INVALID)
    }
  })

  it('works for one hour', async () => {
    const member = await registerMember(app)
    const token = await mailedToken(member)
    now += 59 * 60_000
    expect((await check(token, freshIp())).statusCode).toBe(200)
    now += 2 * 60_000
    const late = await reset(resetBody(token), freshIp())
    expect(late.statusCode).toBe(400)
    expect(errorOf(late)).toBe(RESET_LINK_INVALID)
    expect((await loginAs(member.user.username, member.password)).statusCode).toBe(200)
  })

  it('stops working when a newer link is asked for', async () => {
    const member = await registerMember(app)
    const first = await mailedToken(member)
    const second = await mailedToken(member, member.user.email)
    expect(second).not.toBe(first)
    expect(errorOf(await check(first, freshIp()))).toBe(RESET_LINK_INVALID)
    expect((await check(second, freshIp())).statusCode).toBe(200)
  })

  it('stops working when the member changes the password', async () => {
    const member = await registerMember(app)
    const token = await mailedToken(member)
    const change = await api(app, 'POST', '/api/auth/change-password', {
      token: member.token,
      body: passwordChange(member.password, 'Another-Pass-8'),
    })
    expect(change.statusCode, change.body).toBe(200)
    expect(errorOf(await check(token, freshIp()))).toBe(RESET_LINK_INVALID)
  })
})

describe('resetting', () => {
  it('sets the new password, ends every session, and works once', async () => {
    const member = await registerMember(app)
    const second = await loginAs(member.user.username, member.password)
    const secondToken = second.json<AuthResponse>().token
    const token = await mailedToken(member)

    const res = await reset(resetBody(token), freshIp())
    expect(res.statusCode, res.body).toBe(200)
    expect((await me(member.token)).statusCode).toBe(401)
    expect((await me(secondToken)).statusCode).toBe(401)
    expect((await loginAs(member.user.username, member.password)).statusCode).toBe(401)
    expect((await loginAs(member.user.username, NEW_PASSWORD)).statusCode).toBe(200)

    const again = await reset(resetBody(token, { newAuthSecret: authSecretOf('Third-Pass-9') }), freshIp())
    expect(again.statusCode).toBe(400)
    expect(errorOf(again)).toBe(RESET_LINK_INVALID)
    expect((await loginAs(member.user.username, NEW_PASSWORD)).statusCode).toBe(200)
  })

  it('lets only one of two concurrent resets with one link through', async () => {
    const member = await registerMember(app)
    const token = await mailedToken(member)
    const answers = await Promise.all([
      reset(resetBody(token, { newAuthSecret: authSecretOf('Racer-One-1') }), freshIp()),
      reset(resetBody(token, { newAuthSecret: authSecretOf('Racer-Two-2') }), freshIp()),
    ])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400])
  })

  it('for a member with keys, asks for a private key, and with a new pair replaces the public key (key history grows)', async () => {
    const member = await registerMember(app, fakeKeys())
    const token = await mailedToken(member)
    const missing = await reset(resetBody(token), freshIp())
    expect(missing.statusCode).toBe(400)
    expect(errorOf(missing)).toBe(REWRAP_REQUIRED)

    const pair = fakeKeys()
    const res = await reset(resetBody(token, pair), freshIp())
    expect(res.statusCode, res.body).toBe(200)
    const signedIn = (await loginAs(member.user.username, NEW_PASSWORD)).json<AuthResponse>()
    expect(signedIn.user.publicKey).toBe(pair.publicKey)
    expect(signedIn.privateKey).toBe(pair.privateKey)
    const history = await selectRows<{ public_key: string }>(
      db(),
      sql`select public_key from member_key_history where user_id = ${member.user.id} order by since`,
    )
    expect(history.map((h) => h.public_key)).toEqual([member.user.publicKey, pair.publicKey])
  })

  it('checks the formats of the keys it stores', async () => {
    const member = await registerMember(app, fakeKeys())
    const token = await mailedToken(member)
    const publicKey = member.user.publicKey
    for (const privateKey of [fakeRecoveryCopy(), 'wk2.not-a-key', `wk1.600000.${'A'.repeat(22)}.${'A'.repeat(16)}.${'A'.repeat(30)}`]) {
      const res = await reset(resetBody(token, { privateKey, publicKey }), freshIp())
      expect(res.statusCode).toBe(400)
    }
    const badPublic = await reset(resetBody(token, { privateKey: fakeWrappedKey(), publicKey: 'B'.repeat(86) + 'x' }), freshIp())
    expect(badPublic.statusCode).toBe(400)
    expect((await check(token, freshIp())).statusCode).toBe(200)
  })

  it('refuses bad KDF settings', async () => {
    const member = await registerMember(app)
    const token = await mailedToken(member)
    const res = await reset(resetBody(token, { kdf: { ...testKdf(), memory: 1024 } }), freshIp())
    expect(res.statusCode).toBe(400)
  })

  it('limits resets per account, from any address', async () => {
    const member = await registerMember(app, fakeKeys())
    const token = await mailedToken(member)
    // Without the private key every try is refused after counting.
    for (let i = 0; i < 5; i++) expect((await reset(resetBody(token), freshIp())).statusCode).toBe(400)
    const refused = await reset(resetBody(token, { privateKey: fakeWrappedKey() }), freshIp())
    expect(refused.statusCode).toBe(429)
  })

  it('limits link checks and resets per address', async () => {
    const limited = await buildTestApp(database, {
      clock,
      config: { rateLimits: true, resetLimitPerIp: { max: 3, windowMs: 60 * 60_000 } },
    })
    try {
      const ask = () =>
        limited.inject({ method: 'POST', url: '/api/auth/password/reset/check', remoteAddress: '10.77.0.1', payload: { token: 'x'.repeat(43) } })
      for (let i = 0; i < 3; i++) expect((await ask()).statusCode).toBe(400)
      expect((await ask()).statusCode).toBe(429)
    } finally {
      await limited.close()
    }
  })
})

describe('the message recovery key', () => {
  const setCopy = (member: Member, recoveryKey: string, password = member.password) =>
    api(app, 'POST', '/api/auth/recovery-key', {
      token: member.token,
      body: { recoveryKey, currentAuthSecret: authSecretOf(password) },
    })

  it('is stored with the password, shown as hasRecoveryKey, and its format checked', async () => {
    const member = await registerMember(app, fakeKeys())
    expect(member.user.hasRecoveryKey).toBe(false)
    const wrong = await setCopy(member, fakeRecoveryCopy(), 'Not-The-Pass-1')
    expect(wrong.statusCode).toBe(400)
    expect(errorOf(wrong)).toBe(CURRENT_PASSWORD_INCORRECT)
    for (const bad of [fakeWrappedKey(), 'wr1.abc.def']) {
      const res = await setCopy(member, bad)
      expect(res.statusCode).toBe(400)
      expect(errorOf(res)).toBe(RECOVERY_COPY_FORMAT)
    }
    const copy = fakeRecoveryCopy()
    const res = await setCopy(member, copy)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<{ user: AuthResponse['user'] }>().user.hasRecoveryKey).toBe(true)
    expect((await me(member.token)).json<{ user: AuthResponse['user'] }>().user.hasRecoveryKey).toBe(true)
    // The copy itself leaves the server only for a reset link.
    expect((await me(member.token)).body).not.toContain(copy)

    const removed = await api(app, 'POST', '/api/auth/recovery-key/remove', {
      token: member.token,
      body: { currentAuthSecret: authSecretOf(member.password) },
    })
    expect(removed.statusCode).toBe(200)
    expect(removed.json<{ user: AuthResponse['user'] }>().user.hasRecoveryKey).toBe(false)
  })

  it('needs message keys first', async () => {
    const member = await registerMember(app)
    const res = await setCopy(member, fakeRecoveryCopy())
    expect(res.statusCode).toBe(409)
  })

  it('survives a password change', async () => {
    const member = await registerMember(app, fakeKeys())
    const copy = fakeRecoveryCopy()
    expect((await setCopy(member, copy)).statusCode).toBe(200)
    const change = await api(app, 'POST', '/api/auth/change-password', {
      token: member.token,
      body: passwordChange(member.password, 'Changed-Pass-3', { privateKey: fakeWrappedKey() }),
    })
    expect(change.statusCode, change.body).toBe(200)
    expect((await me(member.token)).json<{ user: AuthResponse['user'] }>().user.hasRecoveryKey).toBe(true)
  })

  it('a reset with it keeps the public key, the key history and the copy; the link answers the copy', async () => {
    const member = await registerMember(app, fakeKeys())
    const copy = fakeRecoveryCopy()
    expect((await setCopy(member, copy)).statusCode).toBe(200)
    const token = await mailedToken(member)
    expect((await check(token, freshIp())).json()).toMatchObject({ recoveryKey: copy, publicKey: member.user.publicKey })

    const rewrapped = fakeWrappedKey()
    // Half a pair is refused: the browser always names the public key its private key belongs to.
    expect((await reset(resetBody(token, { privateKey: rewrapped }), freshIp())).statusCode).toBe(400)
    const res = await reset(resetBody(token, { privateKey: rewrapped, publicKey: member.user.publicKey }), freshIp())
    expect(res.statusCode, res.body).toBe(200)
    const signedIn = (await loginAs(member.user.username, NEW_PASSWORD)).json<AuthResponse>()
    expect(signedIn.user.publicKey).toBe(member.user.publicKey)
    expect(signedIn.privateKey).toBe(rewrapped)
    expect(signedIn.user.hasRecoveryKey).toBe(true)
    const history = await selectRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from member_key_history where user_id = ${member.user.id}`,
    )
    expect(history[0]!.n).toBe(1)
  })

  it('a reset with a new key pair deletes the copy (it opens a key that is no longer theirs)', async () => {
    const member = await registerMember(app, fakeKeys())
    expect((await setCopy(member, fakeRecoveryCopy())).statusCode).toBe(200)
    const token = await mailedToken(member)
    expect((await reset(resetBody(token, fakeKeys()), freshIp())).statusCode).toBe(200)
    const signedIn = (await loginAs(member.user.username, NEW_PASSWORD)).json<AuthResponse>()
    expect(signedIn.user.hasRecoveryKey).toBe(false)
    const rows = await selectRows<{ message_recovery_key: string | null }>(
      db(),
      sql`select message_recovery_key from users where id = ${member.user.id}`,
    )
    expect(rows[0]!.message_recovery_key).toBeNull()
  })
})

describe('with two-factor sign-in on', () => {
  async function withTwoFactor(): Promise<{ member: Member; recoveryCodes: string[] }> {
    const member = await registerMember(app)
    const setup = await api(app, 'POST', '/api/auth/two-factor/setup', { token: member.token })
    const { secret } = setup.json<{ secret: string }>()
    const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 })
    const res = await api(app, 'POST', '/api/auth/two-factor/enable', {
      token: member.token,
      body: { code: totp.generate({ timestamp: now }), currentAuthSecret: authSecretOf(member.password) },
    })
    expect(res.statusCode, res.body).toBe(200)
    return { member, recoveryCodes: res.json<{ recoveryCodes: string[] }>().recoveryCodes }
  }

  it('still asks for a code: a mailbox alone does not beat the second factor', async () => {
    const { member, recoveryCodes } = await withTwoFactor()
    const token = await mailedToken(member)
    expect((await check(token, freshIp())).json()).toMatchObject({ twoFactorEnabled: true })

    const none = await reset(resetBody(token), freshIp())
    expect(none.statusCode).toBe(400)
    expect(errorOf(none)).toBe(TWO_FACTOR_CODE_REQUIRED)
    const wrong = await reset(resetBody(token, { twoFactorCode: '000000' }), freshIp())
    expect(wrong.statusCode).toBe(400)
    expect(errorOf(wrong)).toBe(INVALID_CODE)
    expect((await loginAs(member.user.username, NEW_PASSWORD)).statusCode).toBe(401)

    const res = await reset(resetBody(token, { twoFactorCode: recoveryCodes[0] }), freshIp())
    expect(res.statusCode, res.body).toBe(200)
    const signedIn = await loginAs(member.user.username, NEW_PASSWORD)
    expect(Object.keys(signedIn.json<object>())).toEqual(['secondFactor'])
  })
})

