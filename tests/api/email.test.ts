import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { ParsedMail } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { selectRows } from '../../server/db/rows'
import { replaceToken } from '../../server/modules/email/queries'
import { CONFIRM_EMAIL_TO_POST, EMAIL_LINK_INVALID } from '../../src/api/contract/email'
import { field, send } from './content-helpers'
import {
  api,
  type AuthResponse,
  authSecretOf,
  buildTestApp,
  type ErrorBody,
  loginBody,
  openTestDatabase,
  registerMember,
  type TestDatabase,
  uniqueName,
} from './harness'
import { startSmtp, type TestSmtp } from './smtp'

// docs/product.md, "Email": the link mailed at registration, resending it, changing the address (password required,
// effective only when the new address's link is opened) and REQUIRE_VERIFIED_EMAIL. Mail goes through a real SMTP
// server; time moves on the app's clock.

let database: TestDatabase
let smtp: TestSmtp
let app: FastifyInstance
let now = Date.UTC(2026, 10, 27, 12)
const clock = { now: () => now }
const HOUR = 60 * 60_000

const limits = {
  rateLimits: true,
  loginLimitPerIp: { max: 10_000, windowMs: 15 * 60_000 },
  loginLimitPerAccount: { max: 1_000, windowMs: 15 * 60_000 },
  registerLimitPerIp: { max: 10_000, windowMs: HOUR },
}

beforeAll(async () => {
  database = await openTestDatabase()
  smtp = await startSmtp()
  app = await buildTestApp(database, { clock, config: { smtpUrl: smtp.url, ...limits } })
})
afterAll(async () => {
  await app?.close()
  await smtp?.close()
  await database?.close()
})

type Member = AuthResponse & { password: string }
const seen = new Set<ParsedMail>()

/** The next mail to `to` with this subject that no earlier step of the test read. */
async function nextMail(to: string, subject: string): Promise<ParsedMail> {
  await app.services.jobs.drain()
  const mail = await smtp.waitFor(to, (m) => !seen.has(m) && m.subject === `${subject} · Wren`)
  seen.add(mail)
  return mail
}

function tokenIn(mail: ParsedMail): string {
  const match = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')
  if (!match?.[1]) throw new Error(`No verify link in: ${mail.text}`)
  return match[1]
}

const verify = (token: string, on = app) => api(on, 'POST', '/api/auth/email/verify', { body: { token } })
const me = async (member: Member) =>
  (await api(app, 'GET', '/api/auth/me', { token: member.token })).json<{ user: AuthResponse['user'] }>().user
const changeEmail = (member: Member, newEmail: string, password = member.password, on = app) =>
  api(on, 'POST', '/api/auth/email/change', {
    token: member.token,
    body: { newEmail, currentAuthSecret: authSecretOf(password) },
  })
const resend = (member: Member) => api(app, 'POST', '/api/auth/email/resend', { token: member.token })

async function newMember(): Promise<Member & { email: string }> {
  const username = uniqueName('em')
  const email = `${username.toLowerCase()}@example.org`
  return { ...(await registerMember(app, { username, email })), email }
}

describe('the link mailed at registration', () => {
  it('arrives as text and HTML with a link that confirms the address once', async () => {
    const ann = await newMember()
    expect(ann.user.emailVerified).toBe(false)
    const mail = await nextMail(ann.email, 'Confirm your email')
    const token = tokenIn(mail)
    expect(mail.text).toContain(`Confirm my email: http://localhost:3000/verify-email?token=${token}`)
    expect(mail.text).toContain('24 hours')
    expect(mail.html).toContain(`href="http://localhost:3000/verify-email?token=${token}"`)

    const res = await verify(token)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ email: ann.email })
    // The session's member (cached) knows at once.
    expect(await me(ann)).toMatchObject({ emailVerified: true, pendingEmail: null, email: ann.email })

    const again = await verify(token)
    expect(again.statusCode).toBe(400)
    expect(again.json<ErrorBody>().error).toBe(EMAIL_LINK_INVALID)
  })

  it('stops working after 24 hours, and unknown or malformed tokens get the same answer', async () => {
    const bo = await newMember()
    const token = tokenIn(await nextMail(bo.email, 'Confirm your email'))
    now += 24 * HOUR + 1_000
    for (const t of [token, 'A'.repeat(43), 'not-a-token']) {
      const res = await verify(t)
      expect(res.statusCode).toBe(400)
      expect(res.json<ErrorBody>().error).toBe(EMAIL_LINK_INVALID)
    }
    expect((await me(bo)).emailVerified).toBe(false)
  })

  it('confirms only the member it was mailed to, whoever opens it', async () => {
    const ann = await newMember()
    const bo = await newMember()
    const annToken = tokenIn(await nextMail(ann.email, 'Confirm your email'))
    const boToken = tokenIn(await nextMail(bo.email, 'Confirm your email'))
    // Bo's link opened (by anyone, signed in or not) confirms Bo, not Ann.
    expect((await verify(boToken)).json()).toEqual({ email: bo.email })
    expect((await me(ann)).emailVerified).toBe(false)
    expect((await me(bo)).emailVerified).toBe(true)
    expect((await verify(annToken)).statusCode).toBe(200)
    expect((await me(ann)).emailVerified).toBe(true)
  })
})

describe('resending', () => {
  it('mails a new link that replaces the earlier one', async () => {
    const cy = await newMember()
    const first = tokenIn(await nextMail(cy.email, 'Confirm your email'))
    const res = await resend(cy)
    expect(res.statusCode, res.body).toBe(200)
    const second = tokenIn(await nextMail(cy.email, 'Confirm your email'))
    expect(second).not.toBe(first)
    expect((await verify(first)).json<ErrorBody>().error).toBe(EMAIL_LINK_INVALID)
    expect((await verify(second)).statusCode).toBe(200)

    const done = await resend(cy)
    expect(done.statusCode).toBe(409)
    expect(done.json<ErrorBody>().error).toBe('Your email address is already confirmed')
  })

  it('keeps one live link when many are made at once (PostgreSQL runs the jobs side by side)', async () => {
    const cy = await newMember()
    const expiresAt = new Date(now + HOUR)
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        app.services.db.transaction((tx) =>
          replaceToken(tx, { userId: cy.user.id, tokenHash: `hash-${cy.user.id}-${i}`, email: cy.email, expiresAt }),
        ),
      ),
    )
    const live = await selectRows(app.services.db, sql`select 1 from email_tokens where user_id = ${cy.user.id}`)
    expect(live).toHaveLength(1)
  })

  it('allows 5 confirmation mails per member per hour', async () => {
    const di = await newMember()
    for (let i = 0; i < 5; i += 1) expect((await resend(di)).statusCode).toBe(200)
    const sixth = await resend(di)
    expect(sixth.statusCode).toBe(429)
    expect(sixth.json<ErrorBody>().error).toMatch(/^Too many confirmation mails\. Try again in/)
    // Another member is not affected.
    const ed = await newMember()
    expect((await resend(ed)).statusCode).toBe(200)
  })
})

describe('changing the address', () => {
  it('needs the current password, counted like a password change', async () => {
    const fay = await newMember()
    const wrong = await changeEmail(fay, 'fay.new@example.org', 'Wrong-Password-1')
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json<ErrorBody>().error).toBe('Current password is incorrect')
    const neither = await api(app, 'POST', '/api/auth/email/change', { token: fay.token, body: { newEmail: 'x@example.org' } })
    expect(neither.statusCode).toBe(400)
    expect((await me(fay)).pendingEmail).toBeNull()
    const signedOut = await api(app, 'POST', '/api/auth/email/change', { body: { newEmail: 'x@example.org' } })
    expect(signedOut.statusCode).toBe(401)

    // The account's sign-in budget: wrong passwords here lock the change (and sign-in) like wrong sign-ins do.
    const strict = await buildTestApp(database, {
      clock,
      config: { smtpUrl: smtp.url, ...limits, loginLimitPerAccount: { max: 3, windowMs: 15 * 60_000 } },
    })
    try {
      for (let i = 0; i < 3; i += 1) expect((await changeEmail(fay, 'fay2@example.org', 'Wrong-Password-1', strict)).statusCode).toBe(400)
      const locked = await changeEmail(fay, 'fay2@example.org', fay.password, strict)
      expect(locked.statusCode).toBe(429)
      const login = await strict.inject({ method: 'POST', url: '/api/auth/login', payload: loginBody(fay.user.username, fay.password) })
      expect(login.statusCode).toBe(429)
    } finally {
      await strict.close()
    }
  })

  it("refuses another member's address (any case) with registration's message, and one's own", async () => {
    const gil = await newMember()
    const hal = await newMember()
    const taken = await changeEmail(gil, hal.email.toUpperCase())
    expect(taken.statusCode).toBe(409)
    expect(taken.json<ErrorBody>().error).toBe('Email is already registered')
    const same = await changeEmail(gil, gil.email)
    expect(same.statusCode).toBe(400)
    expect(same.json<ErrorBody>().error).toBe('That is already your email address')
  })

  it('keeps the old address until the link mailed to the new one is opened, and tells the old address', async () => {
    const ivy = await newMember()
    const registrationToken = tokenIn(await nextMail(ivy.email, 'Confirm your email'))
    const newEmail = `${uniqueName('nu')}@example.org`
    const res = await changeEmail(ivy, newEmail)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<{ user: AuthResponse['user'] }>().user).toMatchObject({ email: ivy.email, pendingEmail: newEmail })

    const notice = await nextMail(ivy.email, 'Your email is being changed')
    expect(notice.text).toContain(`to ${newEmail[0]}***@example.org`)
    expect(notice.text).not.toContain(newEmail)
    expect(notice.text).not.toContain('verify-email')
    const token = tokenIn(await nextMail(newEmail, 'Confirm your new email'))

    // Still the old address: sign-in by the new one does not work yet.
    expect((await me(ivy)).email).toBe(ivy.email)
    const early = await app.inject({ method: 'POST', url: '/api/auth/login', payload: loginBody(newEmail, ivy.password) })
    expect(early.statusCode).toBe(401)
    // The link for the old address was replaced by the new one.
    expect((await verify(registrationToken)).json<ErrorBody>().error).toBe(EMAIL_LINK_INVALID)

    expect((await verify(token)).json()).toEqual({ email: newEmail })
    expect(await me(ivy)).toMatchObject({ email: newEmail, pendingEmail: null, emailVerified: true })
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: loginBody(newEmail, ivy.password) })
    expect(login.statusCode).toBe(200)
  })

  it('resends to the pending address, and a second change replaces the first one', async () => {
    const jo = await newMember()
    const first = `${uniqueName('a')}@example.org`
    const second = `${uniqueName('b')}@example.org`
    expect((await changeEmail(jo, first)).statusCode).toBe(200)
    const firstToken = tokenIn(await nextMail(first, 'Confirm your new email'))
    expect((await resend(jo)).statusCode).toBe(200)
    const resent = tokenIn(await nextMail(first, 'Confirm your new email'))
    expect((await verify(firstToken)).statusCode).toBe(400)

    expect((await changeEmail(jo, second)).statusCode).toBe(200)
    expect((await verify(resent)).json<ErrorBody>().error).toBe(EMAIL_LINK_INVALID)
    expect((await verify(tokenIn(await nextMail(second, 'Confirm your new email')))).json()).toEqual({ email: second })
  })

  it('answers 409 when the new address was registered by someone else before the link was opened', async () => {
    const kim = await newMember()
    const wanted = `${uniqueName('w')}@example.org`
    expect((await changeEmail(kim, wanted)).statusCode).toBe(200)
    const token = tokenIn(await nextMail(wanted, 'Confirm your new email'))
    await registerMember(app, { email: wanted })
    const res = await verify(token)
    expect(res.statusCode).toBe(409)
    expect(res.json<ErrorBody>().error).toBe('Email is already registered')
    expect(await me(kim)).toMatchObject({ email: kim.email, pendingEmail: wanted })
  })
})

describe('REQUIRE_VERIFIED_EMAIL', () => {
  it('keeps unconfirmed members from posting and replying until they open their link', async () => {
    const strict = await buildTestApp(database, { clock, config: { smtpUrl: smtp.url, requireVerifiedEmail: true } })
    try {
      const lu = await newMember()
      const confirmed = await newMember()
      expect((await verify(tokenIn(await nextMail(confirmed.email, 'Confirm your email')))).statusCode).toBe(200)
      const post = await send(strict, 'POST', '/api/posts', confirmed.token, [field('content', 'hello')])
      expect(post.statusCode, post.body).toBe(201)
      const postId = post.json<{ post: { id: string } }>().post.id

      for (const parts of [[field('content', 'mine')], [field('content', 'a reply'), field('replyTo', postId)]]) {
        const refused = await send(strict, 'POST', '/api/posts', lu.token, parts)
        expect(refused.statusCode).toBe(403)
        expect(refused.json<ErrorBody>().error).toBe(CONFIRM_EMAIL_TO_POST)
      }
      // Off (the default), the same member posts.
      expect((await send(app, 'POST', '/api/posts', lu.token, [field('content', 'fine here')])).statusCode).toBe(201)

      // Opened through the strict app: two apps in one test share no cache invalidations (REDIS_URL would).
      expect((await verify(tokenIn(await nextMail(lu.email, 'Confirm your email')), strict)).statusCode).toBe(200)
      const after = await send(strict, 'POST', '/api/posts', lu.token, [field('content', 'a reply'), field('replyTo', postId)])
      expect(after.statusCode, after.body).toBe(201)
    } finally {
      await strict.close()
    }
  })
})
