import type { Clock } from '../../lib/clock'
import { eq } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { INVALID_CODE, SIGN_IN_TOO_SLOW } from '../../../src/api/contract/two-factor'
import type { Config } from '../../config'
import { isUuid } from '../../db/ids'
import { users, type UserRow } from '../../db/schema'
import { Conflict, Forbidden, Invalid, NotFound, Unauthenticated } from '../../lib/domain-errors'
import type { RateLimiter } from '../../lib/rate-limiter'
import { recordAudit } from '../admin/queries'
import { ADMIN_USER_NOT_FOUND, ADMINS_ONLY } from '../admin/service'
import type { PasswordHasher } from '../auth/passwords'
import { proveCurrentPassword } from '../auth/current-password'
import type { SecondStep, SecondStepIssuer } from '../auth/second-step'
import type { Authenticated } from '../../lib/authenticated'
import type { SessionStart, SessionStore } from '../auth/sessions'
import { SignInLimits } from '../auth/sign-in-limits'
import { hashToken, newToken } from '../auth/tokens'
import { hashRecoveryCode, newRecoveryCodes, newSecret, normalizeRecoveryCode, stepOfCode } from './codes'
import {
  acceptStep,
  clearTwoFactor,
  enable,
  findChallenge,
  findTwoFactor,
  insertChallenge,
  regenerateRecoveryCodes,
  spendRecoveryCode,
  storePendingSecret,
  takeChallenge,
} from './queries'

// The product's words (docs/product.md, "Two-factor sign-in"); the two the browser reacts to are shared with it.
export const TWO_FACTOR_ALREADY_ON = 'Two-factor sign-in is already on'
export const TWO_FACTOR_NOT_SET_UP = 'Set up two-factor sign-in first'
export const TWO_FACTOR_OFF = 'Two-factor sign-in is off'
/** Completes "Too many ___. Try again in …" when the second-factor bucket is empty. */
const WRONG_CODES = 'wrong codes'

/** How long the second step of a sign-in may take after the password. */
export const CHALLENGE_MS = 5 * 60_000

/** What a setting change sends: a code and the current password as a password change proves it. */
export interface CodeAndPassword {
  code: string
  currentAuthSecret?: string
  currentPassword?: string
}

export interface TwoFactorDeps {
  config: Config
  db: Database
  passwords: PasswordHasher
  sessions: SessionStore
  rateLimits: RateLimiter
  /** The clock of the codes and tickets, the sessions' one (server/lib/clock.ts). */
  clock: Clock
}

/**
 * Two-factor sign-in with TOTP (docs/security.md, "Two-factor sign-in"): setting it up, turning it on and off,
 * recovery codes, the second step of a sign-in, and an admin's reset. The secret leaves the server in one answer
 * only, `setup`'s; every other answer is built without it.
 */
export class TwoFactorService implements SecondStepIssuer {
  private readonly db: Database
  private readonly passwords: PasswordHasher
  private readonly sessions: SessionStore
  private readonly signIn: SignInLimits
  private readonly clock: Clock

  constructor(deps: TwoFactorDeps) {
    this.db = deps.db
    this.passwords = deps.passwords
    this.sessions = deps.sessions
    this.signIn = new SignInLimits(deps.rateLimits, deps.config)
    this.clock = deps.clock
  }

  /** A new secret, replacing one set up and never enabled; 409 once 2FA is on. */
  async setup(auth: Authenticated): Promise<{ secret: string; uri: string }> {
    if (auth.user.twoFactorEnabled) throw new Conflict(TWO_FACTOR_ALREADY_ON)
    const made = newSecret(auth.user.username)
    if (!(await storePendingSecret(this.db, auth.user.id, made.secret))) throw new Conflict(TWO_FACTOR_ALREADY_ON)
    return made
  }

  /** The set-up secret confirmed with one of its codes and the password: 2FA on, ten recovery codes made. */
  async enable(auth: Authenticated, input: CodeAndPassword): Promise<{ user: UserRow; recoveryCodes: string[] }> {
    await proveCurrentPassword({ passwords: this.passwords, signIn: this.signIn }, auth.user, input)
    const row = await findTwoFactor(this.db, auth.user.id)
    if (!row) throw new Conflict(TWO_FACTOR_NOT_SET_UP)
    if (row.enabled) throw new Conflict(TWO_FACTOR_ALREADY_ON)
    await this.proveCode(auth.user.id, input.code, false)
    const recoveryCodes = newRecoveryCodes()
    if (!(await enable(this.db, auth.user.id, recoveryCodes.map(hashOf)))) throw new Conflict(TWO_FACTOR_ALREADY_ON)
    await this.sessions.memberChanged(auth.user.id)
    return { user: { ...auth.user, twoFactorEnabled: true }, recoveryCodes }
  }

  async disable(auth: Authenticated, input: CodeAndPassword): Promise<UserRow> {
    await proveCurrentPassword({ passwords: this.passwords, signIn: this.signIn }, auth.user, input)
    await this.requireOn(auth.user.id)
    await this.proveCode(auth.user.id, input.code, true)
    await this.db.transaction((tx) => clearTwoFactor(tx, auth.user.id))
    await this.sessions.memberChanged(auth.user.id)
    return { ...auth.user, twoFactorEnabled: false }
  }

  async regenerateRecoveryCodes(auth: Authenticated, input: CodeAndPassword): Promise<string[]> {
    await proveCurrentPassword({ passwords: this.passwords, signIn: this.signIn }, auth.user, input)
    await this.requireOn(auth.user.id)
    await this.proveCode(auth.user.id, input.code, true)
    const recoveryCodes = newRecoveryCodes()
    if (!(await regenerateRecoveryCodes(this.db, auth.user.id, recoveryCodes.map(hashOf)))) {
      throw new Conflict(TWO_FACTOR_OFF)
    }
    return recoveryCodes
  }

  /** Called by the login once the password is right: the pending second step, kept in the database. */
  async challenge(userId: string, start: SessionStart): Promise<SecondStep> {
    const { token: ticket, tokenHash } = newToken()
    const now = this.clock.now()
    const expiresAt = new Date(now + CHALLENGE_MS)
    await insertChallenge(this.db, { userId, ticketHash: tokenHash, start, expiresAt, now: new Date(now) })
    return { secondFactor: { ticket, expiresAt } }
  }

  /**
   * The second step: a good ticket and a code of its account start the session the password step described. Wrong
   * codes count in the account's second-factor bucket (and the address's sign-in bucket); the ticket stays for
   * another try until it expires.
   */
  async completeSignIn(ticket: string, code: string, address: string): Promise<{ user: UserRow; token: string }> {
    const challenge = await findChallenge(this.db, hashToken(ticket), new Date(this.clock.now()))
    if (!challenge) throw new Unauthenticated(SIGN_IN_TOO_SLOW)
    const attempt = await this.signIn.attempt('second-factor', { accountId: challenge.userId }, address, WRONG_CODES)
    if (!(await this.spendCode(challenge.userId, code, true))) throw new Unauthenticated(INVALID_CODE)
    await attempt.refund()
    if (!(await takeChallenge(this.db, challenge.id))) throw new Unauthenticated(SIGN_IN_TOO_SLOW)
    const [user] = await this.db.select().from(users).where(eq(users.id, challenge.userId))
    if (!user) throw new Unauthenticated(SIGN_IN_TOO_SLOW)
    return { user, token: await this.sessions.create(user.id, challenge.start) }
  }

  /**
   * A password reset of an account with 2FA on still needs a code (an authenticator or a recovery code): otherwise
   * a mailbox alone would beat the second factor. Counted like a sign-in's (second-factor bucket and the address).
   */
  async proveForReset(userId: string, code: string, address: string): Promise<void> {
    const attempt = await this.signIn.attempt('second-factor', { accountId: userId }, address, WRONG_CODES)
    if (!(await this.spendCode(userId, code, true))) throw new Invalid(INVALID_CODE)
    await attempt.refund()
  }

  /** For a member who lost their phone and their recovery codes: 2FA off, written to the audit log. */
  async resetByAdmin(viewer: UserRow, userId: string): Promise<{ id: string; username: string; twoFactorEnabled: false }> {
    if (!viewer.isAdmin) throw new Forbidden(ADMINS_ONLY)
    if (!isUuid(userId)) throw new NotFound(ADMIN_USER_NOT_FOUND)
    const member = await this.db.transaction(async (tx) => {
      const [row] = await tx.select({ id: users.id, username: users.username }).from(users).where(eq(users.id, userId))
      if (!row) throw new NotFound(ADMIN_USER_NOT_FOUND)
      const wasOn = await clearTwoFactor(tx, row.id)
      const details = wasOn
        ? `Turned off two-factor sign-in of @${row.username}`
        : `Reset two-factor sign-in of @${row.username} (it was off)`
      await recordAudit(tx, viewer, 'reset-two-factor', details, { userId: row.id, wasOn })
      return row
    })
    await this.sessions.memberChanged(member.id)
    return { id: member.id, username: member.username, twoFactorEnabled: false }
  }

  /** A code of a member whose two-factor sign-in is on, for another module's setting (deleting the account). */
  async proveCurrentCode(userId: string, code: string): Promise<void> {
    await this.proveCode(userId, code, true)
  }

  private async requireOn(userId: string): Promise<void> {
    const row = await findTwoFactor(this.db, userId)
    if (!row?.enabled) throw new Conflict(TWO_FACTOR_OFF)
  }

  /** A code in Settings: wrong is 400 (a 401 would read as a lost session), counted like a sign-in's. */
  private async proveCode(userId: string, code: string, enabled: boolean): Promise<void> {
    const attempt = await this.signIn.attempt('second-factor', { accountId: userId }, null, WRONG_CODES)
    if (!(await this.spendCode(userId, code, enabled))) throw new Invalid(INVALID_CODE)
    await attempt.refund()
  }

  /**
   * Spends a code once: a TOTP code of the step before, now or after that is later than the last accepted step, or
   * (2FA on) an unused recovery code.
   */
  private async spendCode(userId: string, code: string, enabled: boolean): Promise<boolean> {
    const row = await findTwoFactor(this.db, userId)
    if (!row || row.enabled !== enabled) return false
    const step = stepOfCode(row.secret, code.replace(/\s/g, ''), this.clock.now())
    if (step !== null) return acceptStep(this.db, userId, step, enabled)
    const recovery = enabled ? normalizeRecoveryCode(code) : null
    return recovery !== null && spendRecoveryCode(this.db, userId, hashRecoveryCode(recovery))
  }
}

const hashOf = (code: string) => hashRecoveryCode(normalizeRecoveryCode(code) ?? code)
