import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, openTestDatabase, type TestDatabase } from './harness'
import { startSmtp, type TestSmtp } from './smtp'

/**
 * Mail as a member receives it: through a real SMTP server (SMTP_URL) in this process, or, without one, as .eml files
 * in DATA_DIR/outbox. Sending is a job, so a mail server that is away costs the request nothing and the mail arrives
 * once it is back.
 */

let database: TestDatabase
let smtp: TestSmtp
let now = Date.UTC(2026, 10, 27, 12)
const clock = { now: () => now }

beforeAll(async () => {
  database = await openTestDatabase()
  smtp = await startSmtp()
})
afterAll(async () => {
  await smtp?.close()
  await database?.close()
})

const content = {
  to: 'ann@example.org',
  subject: 'Reset your password',
  paragraphs: ['Someone asked to reset the password of <b>ann</b> & co.'],
  action: { label: 'Choose a new password', url: 'https://social.example.org/reset-password?token=abc' },
  footnote: 'If you did not ask for this, ignore this mail.',
}

describe('through SMTP', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await buildTestApp(database, {
      clock,
      config: { smtpUrl: smtp.url, instanceName: 'Birch Street', mailFrom: 'Birch Street <hello@birch.example>' },
    })
  })
  afterAll(async () => app?.close())

  it('sends plain text and HTML, from MAIL_FROM, with the instance name, and escapes names in the HTML', async () => {
    await app.services.mail.send(content)
    const mail = await smtp.waitFor('ann@example.org')
    expect(mail.subject).toBe('Reset your password · Birch Street')
    expect(mail.from?.text).toBe('"Birch Street" <hello@birch.example>')
    expect(mail.text).toContain('Choose a new password: https://social.example.org/reset-password?token=abc')
    expect(mail.text).toContain('<b>ann</b> & co.')
    expect(mail.html).toContain('Birch Street')
    expect(mail.html).toContain('&lt;b&gt;ann&lt;/b&gt; &amp; co.')
    expect(mail.html).not.toContain('<b>ann</b>')
    expect(mail.html).toContain('href="https://social.example.org/reset-password?token=abc"')
  })

  it('keeps a mail the server refused and delivers it once the server takes mail again', async () => {
    smtp.refuse(true)
    await app.services.mail.send({ ...content, to: 'bo@example.org' })
    await app.services.jobs.drain()
    expect(smtp.received.some((m) => m.to && JSON.stringify(m.to).includes('bo@example.org'))).toBe(false)
    expect(await app.services.jobs.counts()).toEqual([{ kind: 'mail', pending: 1, failed: 0 }])

    smtp.refuse(false)
    now += 10 * 60_000
    await app.services.jobs.drain()
    const mail = await smtp.waitFor('bo@example.org')
    expect(mail.subject).toBe('Reset your password · Birch Street')
    expect(await app.services.jobs.counts()).toEqual([])
  })

  it('builds links on PUBLIC_URL', async () => {
    const other = await buildTestApp(database, { config: { smtpUrl: smtp.url, publicUrl: 'https://wren.example' } })
    expect(other.services.mail.link('/verify-email', { token: 'a b' })).toBe('https://wren.example/verify-email?token=a+b')
    await other.close()
    expect(app.services.mail.link('/x')).toBe('http://localhost:3000/x')
  })
})

describe('without SMTP_URL', () => {
  it('writes each mail as an .eml file under DATA_DIR/outbox that a mail program can open', async () => {
    const app = await buildTestApp(database, { config: { smtpUrl: undefined } })
    await app.services.mail.send(content)
    await app.services.jobs.drain()
    const outbox = path.join(database.dataDir, 'outbox')
    const files = (await readdir(outbox)).filter((f) => f.endsWith('.eml'))
    expect(files).toHaveLength(1)
    const mail = await simpleParser(await readFile(path.join(outbox, files[0] as string)))
    expect(mail.subject).toBe('Reset your password · Wren')
    expect(mail.text).toContain('https://social.example.org/reset-password?token=abc')
    expect(mail.from?.text).toBe('"Wren" <no-reply@localhost>')
    await app.close()
  })
})
