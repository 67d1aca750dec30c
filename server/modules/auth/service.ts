import { kdfProblem, type KdfSettings } from '../../../src/api/contract/kdf'
import { LIMITS } from '../../../src/api/contract/limits'
import type { Config } from '../../config'
import type { Database } from '../../db/client'
import { violatedUniqueConstraint } from '../../db/errors'
import type { UserRow } from '../../db/schema'
import { Conflict, Invalid, Unauthenticated } from '../../lib/domain-errors'
import { checkLength } from '../../lib/lengths'
import type { RateLimiter } from '../../lib/rate-limiter'
import { type Clock, systemClock } from '../../lib/clock'
import { isUsernameHeld } from '../account-deletion/queries'
import { checkWrappedPrivateKey, KEYS_EXIST, keyPairOf, NO_KEY_TO_REWRAP, REWRAP_REQUIRED } from './keys'
import type { PasswordHasher } from './passwords'
import { PreloginSalts } from './prelogin'
import {
  findTakenIdentity,
  findUserByLogin,
  insertUser,
  replacePasswordRevokingOthers,
  setPasswordHash,
  storeKeyPair,
  upgradeCredentials,
} from './queries'
import type { Authenticated } from '../../lib/authenticated'
import type { SessionStart, SessionStore } from './sessions'
import { SignInLimits } from './sign-in-limits'
import type { SecondStep, SecondStepIssuer } from './second-step'
import { EMAIL_TAKEN, type NewAccountMail } from '../email/service'
import { CURRENT_PASSWORD_INCORRECT, proofFor, type Credential } from './proof'

export const INVALID_CREDENTIALS = 'Invalid username or password'
export const ALREADY_UPGRADED = 'This account already signs in with derived secrets'
const KEYS_TOGETHER_MISSING = 'publicKey and privateKey are required'

const conflictMessages = {
  username: 'Username is already taken',
  email: EMAIL_TAKEN,
} as const

// Unique index name -> which identity it guards (see server/db/schema.ts).
const identityByConstraint: Record<string, keyof typeof conflictMessages> = {
  users_username_lower_key: 'username',
  users_email_lower_key: 'email',
}

/**
 * Names that are also paths under /users (GET /users/{username} would be shadowed by /users/search etc.) or that the
 * SPA uses as words of its own. Compared case-insensitively. Names with "-" are listed for completeness even though
 * the username pattern already refuses them.
 */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'search',
  'profile',
  'settings',
  'promote',
  'demote',
  'fix-all-stats',
  'migrate-keys',
  'me',
])

export const reservedUsernameMessage = (username: string) =>
  `The username "${username}" is reserved; please choose another`

export interface Registration {
  username: string
  email: string
  displayName: string
  /** Derived in the browser from the password with `kdf` (src/crypto/kdf.ts); the password never arrives. */
  authSecret: string
  kdf: KdfSettings
  /** The browser's new key pair: optional (older clients, the seed), but both or neither. */
  publicKey?: string
  privateKey?: string
}

/** What a sign-in proves: the derived secret, or the password of an account not moved over yet. */

/** A password change: the current proof (as Credential) and the new secret with its settings. */
export interface PasswordChange {
  currentAuthSecret?: string
  currentPassword?: string
  newAuthSecret: string
  kdf: KdfSettings
  /** The private key re-wrapped as wk2 under the new wrapping key; required when the member has one. */
  privateKey?: string
}

/** A legacy account's move to derived secrets, after a sign-in with its password. */
export interface Upgrade {
  password: string
  authSecret: string
  kdf: KdfSettings
  privateKey?: string
}

/** The settings are within the bounds the browser also enforces (src/api/contract/kdf.ts). */
function checkKdf(kdf: KdfSettings): KdfSettings {
  const problem = kdfProblem(kdf)
  if (problem !== null) throw new Invalid(problem)
  return kdf
}

const ONE_PROOF = 'Send exactly one of authSecret and password'

export interface SignedIn {
  user: UserRow
  token: string
}

/** What AccountService needs, by the names of the services registry (server/services.ts). */
export interface AccountDeps {
  config: Config
  db: Database
  passwords: PasswordHasher
  sessions: SessionStore
  rateLimits: RateLimiter
  twoFactor: SecondStepIssuer
  /** The confirmation link a new member is mailed (server/modules/email). */
  newAccountMail: NewAccountMail
  /** "Now" for held usernames (a deleted member's name is held 30 days). */
  clock?: Clock
}

/**
 * Account rules: who may register, sign in and change a password, and how often. `address` is the client's address
 * as its limits count it (server/http/rate-limit.ts `addressKey`).
 */
export class AccountService {
  private readonly config: Config
  private readonly db: Database
  private readonly passwords: PasswordHasher
  private readonly sessions: SessionStore
  private readonly rateLimits: RateLimiter
  private readonly signIn: SignInLimits
  private readonly preloginSalts: PreloginSalts
  private readonly twoFactor: SecondStepIssuer
  private readonly newAccountMail: NewAccountMail
  private readonly clock: Clock

  constructor(deps: AccountDeps) {
    this.config = deps.config
    this.db = deps.db
    this.passwords = deps.passwords
    this.sessions = deps.sessions
    this.rateLimits = deps.rateLimits
    this.signIn = new SignInLimits(deps.rateLimits, deps.config)
    this.preloginSalts = new PreloginSalts(deps.db)
    this.twoFactor = deps.twoFactor
    this.newAccountMail = deps.newAccountMail
    this.clock = deps.clock ?? systemClock
  }

  /**
   * The settings the browser derives with before signing in: the account's, null for an account not moved over (it
   * signs in with its password once), or a made-up stable answer for a name no account has. Every answer counts
   * against the address: three times the sign-in limit, since successes count too (one per sign-in).
   */
  async prelogin(login: string, address: string): Promise<KdfSettings | null> {
    const { max, windowMs } = this.config.loginLimitPerIp
    const limit = { max: max * 3, windowMs }
    await this.rateLimits.take({ key: `prelogin:address:${address}`, limit, what: 'login attempts' })
    const user = await findUserByLogin(this.db, login.trim())
    if (!user) return this.preloginSalts.madeUp(login)
    return user.kdf
  }

  async register(input: Registration, start: SessionStart, address: string): Promise<SignedIn> {
    const limit = this.config.registerLimitPerIp
    await this.rateLimits.take({ key: `register:address:${address}`, limit, what: 'registrations from this address' })
    checkLength('username', input.username, { min: LIMITS.usernameMin, max: LIMITS.usernameMax })
    const displayName = input.displayName.trim()
    if (!displayName) throw new Invalid('displayName must not be empty')
    checkLength('displayName', displayName, { max: LIMITS.displayNameMax })
    if (RESERVED_USERNAMES.has(input.username.toLowerCase())) throw new Invalid(reservedUsernameMessage(input.username))
    const kdf = checkKdf(input.kdf)
    const keys = keyPairOf(input)

    // Checked before hashing to answer duplicates without spending a hash; the unique indexes still decide races.
    const taken = await findTakenIdentity(this.db, input.username, input.email)
    if (taken) throw new Conflict(conflictMessages[taken])
    // A deleted member's name stays theirs for 30 days: answered as taken, like a name in use.
    if (await isUsernameHeld(this.db, input.username, new Date(this.clock.now()))) {
      throw new Conflict(conflictMessages.username)
    }

    const passwordHash = await this.passwords.hash(input.authSecret)
    let user: UserRow
    try {
      user = await insertUser(this.db, {
        username: input.username,
        email: input.email,
        displayName,
        passwordHash,
        kdf,
        ...keys,
      })
    } catch (err) {
      const identity = identityByConstraint[violatedUniqueConstraint(err) ?? '']
      if (identity) throw new Conflict(conflictMessages[identity])
      throw err
    }
    // A new member: cached search answers that would list them are dropped (users/search-results.ts).
    await this.sessions.memberChanged(user.id)
    await this.newAccountMail.confirmNewAccount(user)
    return { user, token: await this.sessions.create(user.id, start) }
  }

  /** Unknown account and wrong password (or secret) fail alike, in answer and in time. */
  async login(
    login: string,
    credential: Credential,
    start: SessionStart,
    address: string,
  ): Promise<SignedIn | SecondStep> {
    const user = await findUserByLogin(this.db, login.trim())
    const password = proofFor(user, credential)
    if (password === undefined) throw new Invalid(ONE_PROOF)
    // Counted against the account the name resolved to: its username and its email are one budget.
    const claimant = user ? { accountId: user.id } : { unknownName: login }
    const attempt = await this.signIn.attempt('password', claimant, address, 'login attempts')
    const valid = user
      ? await this.passwords.verify(user.passwordHash, password)
      : await this.passwords.verifyNobody(password)
    if (!user || !valid) throw new Unauthenticated(INVALID_CREDENTIALS)
    // Only failures count: a member signing in on many devices never locks themselves out.
    await attempt.refund()

    if (this.passwords.needsRehash(user.passwordHash)) {
      await setPasswordHash(this.db, user.id, await this.passwords.hash(password))
      await this.sessions.memberChanged(user.id)
    }
    // A new member: cached search answers that would list them are dropped (users/search-results.ts).
    await this.sessions.memberChanged(user.id)
    // Two-factor on: no session yet; the second step starts it with this same SessionStart.
    if (user.twoFactorEnabled) return this.twoFactor.challenge(user.id, start)
    return { user, token: await this.sessions.create(user.id, start) }
  }

  /**
   * Keeps the session that made the change; every other session of the member ends. A member with message keys must
   * send their private key re-wrapped under the new wrapping key (the browser does it): the server cannot re-wrap it,
   * and a new password with the old wrapping would make the whole message history unreadable at the next sign-in.
   * The new password's strength is the browser's to check: only its derived secret arrives.
   */
  async changePassword(auth: Authenticated, change: PasswordChange): Promise<void> {
    // Guessing the current password with a stolen token is still password guessing: the account's sign-in budget.
    const attempt = await this.signIn.attempt('password', { accountId: auth.user.id }, null, 'password change attempts')
    const current = proofFor(auth.user, { authSecret: change.currentAuthSecret, password: change.currentPassword })
    if (current === undefined) throw new Invalid('Send exactly one of currentAuthSecret and currentPassword')
    // The current password first: a wrong one is always answered as such, whatever else the request lacks.
    if (!(await this.passwords.verify(auth.user.passwordHash, current))) throw new Invalid(CURRENT_PASSWORD_INCORRECT)
    const kdf = checkKdf(change.kdf)
    const rewrappedKey = change.privateKey
    // Answered here from the session's row; the update below decides again from the row itself.
    const keysMismatch = () => new Invalid(rewrappedKey === undefined ? REWRAP_REQUIRED : NO_KEY_TO_REWRAP)
    if ((auth.user.wrappedPrivateKey !== null) !== (rewrappedKey !== undefined)) throw keysMismatch()
    const wrappedPrivateKey = rewrappedKey === undefined ? undefined : checkWrappedPrivateKey(rewrappedKey)
    const passwordHash = await this.passwords.hash(change.newAuthSecret)
    const revoked = await replacePasswordRevokingOthers(
      this.db,
      auth.user.id,
      { passwordHash, kdf },
      wrappedPrivateKey,
      auth.sessionId,
    )
    if (!revoked) throw keysMismatch()
    await this.sessions.announceRevoked(revoked)
    // The kept session's cached row still holds the old hash (a second change would check against it).
    await this.sessions.memberChanged(auth.user.id)
    await attempt.refund()
  }

  /**
   * A legacy account (no KDF settings) that just signed in with its password moves over: the password is checked again
   * (a stolen token alone must not replace the credentials), then the hash of the derived secret, the settings and the
   * private key re-wrapped as wk2 are stored in one statement, which holds only if the account is still legacy and its
   * keys are as the browser believed. Other sessions stay: nothing about the password changed.
   */
  async upgrade(auth: Authenticated, input: Upgrade): Promise<UserRow> {
    if (auth.user.kdf !== null) throw new Conflict(ALREADY_UPGRADED)
    const attempt = await this.signIn.attempt('password', { accountId: auth.user.id }, null, 'login attempts')
    if (!(await this.passwords.verify(auth.user.passwordHash, input.password))) throw new Invalid(CURRENT_PASSWORD_INCORRECT)
    const kdf = checkKdf(input.kdf)
    const keysMismatch = () => new Invalid(input.privateKey === undefined ? REWRAP_REQUIRED : NO_KEY_TO_REWRAP)
    if ((auth.user.wrappedPrivateKey !== null) !== (input.privateKey !== undefined)) throw keysMismatch()
    const wrappedPrivateKey = input.privateKey === undefined ? undefined : checkWrappedPrivateKey(input.privateKey)
    const passwordHash = await this.passwords.hash(input.authSecret)
    const user = await upgradeCredentials(this.db, auth.user.id, { passwordHash, kdf }, wrappedPrivateKey)
    if (!user) throw new Conflict(ALREADY_UPGRADED)
    await this.sessions.memberChanged(user.id)
    await attempt.refund()
    return user
  }

  /**
   * Stores the key pair the member's browser made: for an account without keys, or one an admin marked with
   * migrate-keys (which then becomes able to receive messages). Otherwise 409: replacing keys silently would make
   * every earlier message unreadable.
   */
  async setMessageKeys(auth: Authenticated, input: { publicKey: string; privateKey: string }): Promise<UserRow> {
    const keys = keyPairOf(input)
    if (!keys) throw new Invalid(KEYS_TOGETHER_MISSING)
    const user = await storeKeyPair(this.db, auth.user.id, keys)
    if (!user) throw new Conflict(KEYS_EXIST)
    await this.sessions.memberChanged(user.id)
    return user
  }

  logout(auth: Authenticated): Promise<void> {
    return this.sessions.revoke(auth.sessionId)
  }
}
