import { randomBytes } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import nodemailer from 'nodemailer'
import type { Mail } from './compose'

/** Hands one finished mail to the world. Throws when it could not (the job queue retries). */
export interface MailTransport {
  readonly description: string
  send: (mail: Mail & { from: string }) => Promise<void>
  close: () => void
}

/** SMTP through nodemailer (STARTTLS when the server offers it; smtps:// for TLS from the first byte). */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url)
  return {
    description: `SMTP (${new URL(url).host})`,
    send: async (mail) => {
      await transporter.sendMail(mail)
    },
    close: () => transporter.close(),
  }
}

/**
 * No mail server: each mail becomes an .eml file in `dir` (any mail program opens it), written under a temporary
 * name and renamed, so a reader never sees half a mail. Names sort by time.
 */
export function outboxTransport(dir: string): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    description: `the outbox folder ${dir}`,
    send: async (mail) => {
      const info = await composer.sendMail(mail)
      await mkdir(dir, { recursive: true })
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`
      const partial = path.join(dir, `.${name}.partial`)
      await writeFile(partial, info.message as Buffer, { mode: 0o600 })
      await rename(partial, path.join(dir, name))
    },
    close: () => composer.close(),
  }
}
