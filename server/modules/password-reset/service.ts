import type { KdfSettings } from '../../../src/api/contract/kdf'
import { kdfProblem } from '../../../src/api/contract/kdf'
import { RECOVERY_COPY_PATTERN, WRAPPED_KEY_MAX_LENGTH } from '../../../src/api/contract/encryption'
import type { Config } from '../../config'
import type { Database } from '../../db/client'
import type { UserRow } from '../../db/schema'
import type { JobQueue } from '../../jobs/queue'
import type { Clock } from '../../lib/clock'
import { Conflict, Invalid } from '../../lib/domain-errors'
import type { RateLimiter } from '../../lib/rate-limiter'
import type { Mailer } from '../../mail/mailer'
import { keyPairOf, REWRAP_REQUIRED } from '../auth/keys'
import type { PasswordHasher } from '../auth/passwords'
import { findUserByLogin } from '../auth/queries'
import { proveCurrentPassword } from '../auth/current-password'
import type { Authenticated } from '../../lib/authenticated'
import type { SessionStore } from '../auth/sessions'
import { SignInLimits } from '../auth/sign-in-limits'
import { hashToken, looksLikeToken, newToken } from '../auth/tokens'
import type { TwoFactorService } from '../two-factor/service'
import { applyReset, findResetUser, removeRecoveryCopy, replaceResetToken, storeRecoveryCopy, type ResetWrite } from './queries'

// The product's words (docs/product.md, "Password reset").
export const FORGOT_ACCEPTED =
  'If an account has that username or email, a link to reset its password is on its way. It works for one hour.'
export const RESET_LINK_INVALID = 'This reset link is invalid or has expired. Ask for a new one.'
export const RESET_DONE = 'Your password is reset. Sign in with the new one.'
export const TWO_FACTOR_CODE_REQUIRED = 'Enter a code from your authenticator app or a recovery code'
export const KEYS_CHANGED = 'Your message key changed meanwhile. Open the reset link again.'
export const NO_KEYS_FOR_RECOVERY = 'Make your message key first'
export const RECOVERY_COPY_FORMAT = 'recoveryKey must be a recovery copy: wr1.<iv>.<ciphertext>'

/** How long a mailed link works. */
export const RESET_LINK_MS = 60 * 60_000
export const RESET_REQUEST_JOB = 'password-reset.request'

interface ResetRequestPayload {
  identifier: string
}

export interface ResetInput {
  token: string
  newAuthSecret: string
  kdf: KdfSettings
  privateKey?: string
  publicKey?: string
  twoFactorCode?: string
}

export interface ResetInfo {
  username: string
  publicKey: string | null
  recoveryKey: string | null
  twoFactorEnabled: boolean
}

export interface PasswordProof {
  currentAuthSecret?: string
  currentPassword?: string
}

export interface PasswordResetDeps {
  config: Config
  db: Database
  clock: Clock
  jobs: JobQueue
  mail: Mailer
  passwords: PasswordHasher
  sessions: SessionStore
  rateLimits: RateLimiter
  twoFactor: Pick<TwoFactorService, 'proveForReset'>
}

/**
 * "Forgot password?" and the reset it mails, and the message recovery key that lets a reset keep the message history
 * (docs/security.md, "Password reset and the recovery key"). The server never sees a password, a recovery key or an
 * unwrapped private key here either: only derived secrets and wrapped keys.
 */
export class PasswordResetService {
  private readonly deps: PasswordResetDeps
  private readonly signIn: SignInLimits

  constructor(deps: PasswordResetDeps) {
    this.deps = deps
    this.signIn = new SignInLimits(deps.rateLimits, deps.config)
    // The lookup, the link and the mail run here, not in the request: the request does the same work (one insert)
    // whether or not the name is an account, so neither its answer nor its timing tells.
    deps.jobs.register<ResetRequestPayload>(RESET_REQUEST_JOB, {
      run: ({ payload }) => this.mailLink(payload.identifier),
      maxAttempts: 5,
    })
  }

  async requestReset(identifier: string, address: string): Promise<void> {
    const { config, rateLimits, jobs } = this.deps
    const name = identifier.trim().toLowerCase()
    if (!name) throw new Invalid('identifier must not be empty')
    const what = 'password reset requests'
    await rateLimits.take(
      { key: `forgot:address:${address}`, limit: config.forgotLimitPerIp, what },
      // Per typed name, known or not: no one can fill a member's mailbox, and the limit itself tells nothing.
      { key: `forgot:name:${name}`, limit: config.forgotLimitPerAccount, what },
    )
    // One pending request per name: a second while the first waits adds nothing (it would mail the same member).
    await jobs.enqueue<ResetRequestPayload>(RESET_REQUEST_JOB, { identifier: name }, { key: `forgot:${name}` })
  }

  /** The job: a fresh link (replacing older ones) mailed to the account's address; nothing for an unknown name. */
  private async mailLink(identifier: string): Promise<void> {
    const { db, clock, mail } = this.deps
    const user = await findUserByLogin(db, identifier)
    if (!user) return
    const { token, tokenHash } = newToken()
    await replaceResetToken(db, user.id, tokenHash, new Date(clock.now() + RESET_LINK_MS))
    await mail.send({
      to: user.email,
      subject: 'Reset your password',
      paragraphs: [
        `Someone asked to reset the password of @${user.username} on ${mail.instance.name}. If it was you, choose a new password with the link below. It works once, for one hour.`,
        'If you have a message recovery key, have it ready: it keeps your direct messages readable. Without it, your earlier messages cannot be decrypted after the reset.',
      ],
      action: { label: 'Reset your password', url: mail.link('/reset-password', { token }) },
      footnote: 'If you did not ask for this, ignore this mail: your password stays as it is.',
    })
  }

  /** What the reset screen needs; 400 for a link that is unknown, spent or expired. */
  async inspect(token: string, address: string): Promise<ResetInfo> {
    await this.takeAddress(address)
    const user = await this.userOf(token)
    return {
      username: user.username,
      publicKey: user.publicKey,
      recoveryKey: user.messageRecoveryKey,
      twoFactorEnabled: user.twoFactorEnabled,
    }
  }

  async reset(input: ResetInput, address: string): Promise<void> {
    const { config, rateLimits, passwords, sessions, clock, twoFactor } = this.deps
    await this.takeAddress(address)
    const user = await this.userOf(input.token)
    await rateLimits.take({ key: `reset:account:${user.id}`, limit: config.resetLimitPerAccount, what: 'password resets' })
    const kdfIssue = kdfProblem(input.kdf)
    if (kdfIssue !== null) throw new Invalid(kdfIssue)
    const keys = keysOf(user, input)
    if (user.twoFactorEnabled) {
      if (!input.twoFactorCode) throw new Invalid(TWO_FACTOR_CODE_REQUIRED)
      await twoFactor.proveForReset(user.id, input.twoFactorCode, address)
    }
    const passwordHash = await passwords.hash(input.newAuthSecret)
    const revoked = await applyReset(this.deps.db, {
      userId: user.id,
      tokenHash: hashToken(input.token),
      now: new Date(clock.now()),
      passwordHash,
      kdf: input.kdf,
      keys,
    })
    if (!revoked) {
      // Spent or expired meanwhile, or the keys changed since the link was checked.
      const still = await findResetUser(this.deps.db, hashToken(input.token), new Date(clock.now()))
      throw new Invalid(still ? KEYS_CHANGED : RESET_LINK_INVALID)
    }
    await sessions.announceRevoked(revoked)
    await sessions.memberChanged(user.id)
  }

  async setRecoveryKey(auth: Authenticated, input: PasswordProof & { recoveryKey: string }): Promise<UserRow> {
    const copy = input.recoveryKey
    if (copy.length > WRAPPED_KEY_MAX_LENGTH || !RECOVERY_COPY_PATTERN.test(copy)) throw new Invalid(RECOVERY_COPY_FORMAT)
    await proveCurrentPassword({ passwords: this.deps.passwords, signIn: this.signIn }, auth.user, input)
    const user = await storeRecoveryCopy(this.deps.db, auth.user.id, copy)
    if (!user) throw new Conflict(NO_KEYS_FOR_RECOVERY)
    await this.deps.sessions.memberChanged(user.id)
    return user
  }

  async removeRecoveryKey(auth: Authenticated, input: PasswordProof): Promise<UserRow> {
    await proveCurrentPassword({ passwords: this.deps.passwords, signIn: this.signIn }, auth.user, input)
    const user = (await removeRecoveryCopy(this.deps.db, auth.user.id)) ?? auth.user
    await this.deps.sessions.memberChanged(user.id)
    return user
  }

  private takeAddress(address: string) {
    return this.deps.rateLimits.take({
      key: `reset:address:${address}`,
      limit: this.deps.config.resetLimitPerIp,
      what: 'password reset attempts',
    })
  }

  private async userOf(token: string): Promise<UserRow> {
    if (!looksLikeToken(token)) throw new Invalid(RESET_LINK_INVALID)
    const user = await findResetUser(this.deps.db, hashToken(token), new Date(this.deps.clock.now()))
    if (!user) throw new Invalid(RESET_LINK_INVALID)
    return user
  }

}

/**
 * Which keys the reset stores. A member with keys sends a whole pair, always: their current public key with the same
 * private key re-wrapped (the recovery path), or a new pair. The browser never sends half a pair, so what is stored
 * always belongs together, even if the keys changed after the link was checked. Without keys, a pair may come or none.
 */
function keysOf(user: UserRow, input: ResetInput): ResetWrite['keys'] {
  if (user.publicKey !== null && input.privateKey === undefined) throw new Invalid(REWRAP_REQUIRED)
  const pair = keyPairOf(input)
  if (!pair) return { kind: 'none' }
  return { kind: pair.publicKey === user.publicKey ? 'same' : 'new', ...pair }
}
