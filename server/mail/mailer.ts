import path from 'node:path'
import type { Config } from '../config'
import type { JobQueue } from '../jobs/queue'
import type { SqlExecutor } from '../db/rows'
import { composeMail, type Instance, type Mail, type MailContent } from './compose'
import { type MailTransport, outboxTransport, smtpTransport } from './transport'

const MAIL_JOB = 'mail'

/**
 * Sending mail never blocks the request that causes it: `send` writes a job (in the caller's transaction when given,
 * so a mail exists exactly when what it announces committed) and the job queue delivers it, retrying with backoff
 * while the mail server is away. Without SMTP_URL mail goes to DATA_DIR/outbox, so a newcomer's instance works.
 */
export class Mailer {
  readonly instance: Instance
  private readonly transport: MailTransport
  private readonly from: string

  constructor(private readonly deps: { config: Config; jobs: JobQueue; info: (message: string) => void }) {
    const { config } = deps
    this.instance = {
      name: config.instanceName,
      publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    }
    this.from = config.mailFrom ?? `${config.instanceName} <no-reply@localhost>`
    this.transport = config.smtpUrl ? smtpTransport(config.smtpUrl) : outboxTransport(path.join(config.dataDir, 'outbox'))
    deps.jobs.register<Mail>(MAIL_JOB, {
      run: async ({ payload }) => this.transport.send({ ...payload, from: this.from }),
      // About 21 hours of tries (5 s doubling, at most an hour apart): a mail server down for a night still gets it.
      maxAttempts: 25,
      leaseMs: 2 * 60_000,
    })
  }

  /** Says once, at start, where mail goes. */
  announce(): void {
    this.deps.info(
      this.deps.config.smtpUrl
        ? `mail goes out through ${this.transport.description}`
        : `SMTP_URL is unset: mail is written as .eml files to ${this.transport.description}`,
    )
  }

  /** A link into the app: `link('/reset-password', { token })`. */
  link(pathname: string, query: Record<string, string> = {}): string {
    const search = new URLSearchParams(query).toString()
    return `${this.instance.publicUrl}${pathname}${search ? `?${search}` : ''}`
  }

  /** Queues a mail; `tx` writes it with the change it belongs to. */
  async send(content: MailContent, options: { tx?: SqlExecutor } = {}): Promise<void> {
    await this.deps.jobs.enqueue<Mail>(MAIL_JOB, composeMail(this.instance, content), { tx: options.tx })
  }

  close(): void {
    this.transport.close()
  }
}
