import {
  EMAIL_ALREADY_CONFIRMED,
  EMAIL_LINK_HOURS,
  EMAIL_LINK_INVALID,
  EMAIL_UNCHANGED,
  maskEmail,
} from '../../../src/api/contract/email'
import type { Config } from '../../config'
import type { Database } from '../../db/client'
import { violatedUniqueConstraint } from '../../db/errors'
import type { SqlExecutor } from '../../db/rows'
import type { UserRow } from '../../db/schema'
import type { Clock } from '../../lib/clock'
import { Conflict, Invalid } from '../../lib/domain-errors'
import type { RateLimiter } from '../../lib/rate-limiter'
import type { Mailer } from '../../mail/mailer'
import type { PasswordHasher } from '../auth/passwords'
import { proveCurrentPassword } from '../auth/current-password'
import type { Authenticated } from '../../lib/authenticated'
import type { SessionStore } from '../auth/sessions'
import { SignInLimits } from '../auth/sign-in-limits'
import { hashToken, looksLikeToken, newToken } from '../auth/tokens'
import { confirmCurrent, confirmPending, emailTakenByOther, replaceToken, setPendingEmail, takeToken } from './queries'

/** How long a mailed link works: one constant, shown in the mails and in docs/product.md ("Email"). */
/** One answer for an address another account uses, at registration and when changing one's email. */
export const EMAIL_TAKEN = 'Email is already registered'

export const EMAIL_LINK_MS = EMAIL_LINK_HOURS * 60 * 60_000

/**
 * Confirmation mails one member may cause per hour (resends and changes of address together): enough for a typo and
 * a lost mail, too few to use the instance to flood someone's inbox.
 */
export const CONFIRMATION_MAILS = { max: 5, windowMs: 60 * 60_000 }


/** What registration needs of this module (server/modules/auth/service.ts). */
export interface NewAccountMail {
  confirmNewAccount(user: UserRow): Promise<void>
}

export interface EmailDeps {
  config: Config
  db: Database
  passwords: PasswordHasher
  sessions: SessionStore
  rateLimits: RateLimiter
  mail: Mailer
  clock: Clock
}

/**
 * Email verification (docs/product.md, "Email"): the link mailed at registration, resending it, and changing the
 * address, which takes effect only when the link mailed to the new address is opened. The token is only in the mail;
 * the database keeps its SHA-256.
 */
export class EmailService implements NewAccountMail {
  private readonly db: Database
  private readonly passwords: PasswordHasher
  private readonly sessions: SessionStore
  private readonly rateLimits: RateLimiter
  private readonly mail: Mailer
  private readonly clock: Clock
  private readonly signIn: SignInLimits

  constructor(deps: EmailDeps) {
    this.db = deps.db
    this.passwords = deps.passwords
    this.sessions = deps.sessions
    this.rateLimits = deps.rateLimits
    this.mail = deps.mail
    this.clock = deps.clock
    this.signIn = new SignInLimits(deps.rateLimits, deps.config)
  }

  async confirmNewAccount(user: UserRow): Promise<void> {
    await this.db.transaction(async (tx) => {
      const url = await this.issueLink(tx, user.id, user.email)
      await this.mail.send(
        {
          to: user.email,
          subject: 'Confirm your email',
          paragraphs: [
            `Welcome to ${this.mail.instance.name}, ${user.displayName}.`,
            `Please confirm that this is your email address for @${user.username}.`,
          ],
          action: { label: 'Confirm my email', url },
          footnote: `The link works for ${EMAIL_LINK_HOURS} hours. If you did not sign up, ignore this mail.`,
        },
        { tx },
      )
    })
  }

  /**
   * Opening a link: no session needed (it may be opened in another browser). The token confirms the address it was
   * mailed to, if that is still the member's current or pending address; anything else is one answer.
   */
  async verify(token: string): Promise<{ email: string }> {
    if (!looksLikeToken(token)) throw new Invalid(EMAIL_LINK_INVALID)
    const taken = await takeToken(this.db, hashToken(token))
    const now = this.clock.now()
    if (!taken || taken.expiresAt.getTime() <= now) throw new Invalid(EMAIL_LINK_INVALID)
    const at = new Date(now)
    let user = await confirmCurrent(this.db, taken.userId, taken.email, at)
    if (!user) {
      try {
        user = await confirmPending(this.db, taken.userId, taken.email, at)
      } catch (err) {
        if (violatedUniqueConstraint(err) === 'users_email_lower_key') throw new Conflict(EMAIL_TAKEN)
        throw err
      }
    }
    if (!user) throw new Invalid(EMAIL_LINK_INVALID)
    await this.sessions.memberChanged(user.id)
    return { email: user.email }
  }

  /** A new link to the pending address, or to the current one while it is unconfirmed. */
  async resend(auth: Authenticated): Promise<void> {
    const { user } = auth
    const to = user.pendingEmail ?? (user.emailVerifiedAt === null ? user.email : null)
    if (to === null) throw new Conflict(EMAIL_ALREADY_CONFIRMED)
    await this.countMail(user.id)
    await this.db.transaction(async (tx) => {
      const url = await this.issueLink(tx, user.id, to)
      await this.mail.send({ to, ...this.confirmContent(user, to === user.email), action: { label: 'Confirm my email', url } }, { tx })
    })
  }

  /**
   * Password first (like a password change, counted in the account's sign-in budget), then the address: it must be
   * new and nobody else's. It is stored as pending; the link goes to it, a notice (no link) to the current address.
   */
  async change(auth: Authenticated, input: { newEmail: string; currentAuthSecret?: string; currentPassword?: string }): Promise<UserRow> {
    const { user } = auth
    await proveCurrentPassword({ passwords: this.passwords, signIn: this.signIn }, user, input)
    const newEmail = input.newEmail.trim()
    if (newEmail.toLowerCase() === user.email.toLowerCase()) throw new Invalid(EMAIL_UNCHANGED)
    if (await emailTakenByOther(this.db, newEmail, user.id)) throw new Conflict(EMAIL_TAKEN)
    await this.countMail(user.id)
    const updated = await this.db.transaction(async (tx) => {
      const row = await setPendingEmail(tx, user.id, newEmail)
      const url = await this.issueLink(tx, user.id, newEmail)
      await this.mail.send({ to: newEmail, ...this.confirmContent(user, false), action: { label: 'Confirm my new email', url } }, { tx })
      await this.mail.send(
        {
          to: user.email,
          subject: 'Your email is being changed',
          paragraphs: [
            `Someone signed in as @${user.username} asked to change the account's email address to ${maskEmail(newEmail)}.`,
            'The address changes only when the link we sent there is opened; until then this address stays.',
          ],
          footnote: 'If this was not you, change your password now and look at your sessions in Settings.',
        },
        { tx },
      )
      return row
    })
    if (!updated) throw new Invalid(EMAIL_LINK_INVALID)
    await this.sessions.memberChanged(user.id)
    return updated
  }

  private confirmContent(user: UserRow, current: boolean) {
    return {
      subject: current ? 'Confirm your email' : 'Confirm your new email',
      paragraphs: [
        current
          ? `Please confirm that this is your email address for @${user.username}.`
          : `Please confirm that @${user.username} may use this address from now on.`,
      ],
      footnote: `The link works for ${EMAIL_LINK_HOURS} hours. If you did not ask for this, ignore this mail.`,
    }
  }

  /** A new token for `email`, replacing the member's older ones; answers the link to mail. */
  private async issueLink(tx: SqlExecutor, userId: string, email: string): Promise<string> {
    const { token, tokenHash } = newToken()
    const expiresAt = new Date(this.clock.now() + EMAIL_LINK_MS)
    await replaceToken(tx, { userId, tokenHash, email, expiresAt })
    return this.mail.link('/verify-email', { token })
  }

  private async countMail(userId: string): Promise<void> {
    await this.rateLimits.take({ key: `email:mails:${userId}`, limit: CONFIRMATION_MAILS, what: 'confirmation mails' })
  }
}
