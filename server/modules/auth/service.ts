import { LIMITS } from '../../../src/api/contract/limits'
import type { Config } from '../../config'
import type { Database } from '../../db/client'
import { violatedUniqueConstraint } from '../../db/errors'
import type { UserRow } from '../../db/schema'
import { Conflict, Invalid, Unauthenticated } from '../../lib/domain-errors'
import { checkLength } from '../../lib/lengths'
import type { RateLimiter } from '../../lib/rate-limiter'
import { checkWrappedPrivateKey, KEYS_EXIST, keyPairOf, NO_KEY_TO_REWRAP, REWRAP_REQUIRED } from './keys'
import { isStrongEnough, PASSWORD_RULE_MESSAGE, type PasswordHasher } from './passwords'
import {
  findTakenIdentity,
  findUserByLogin,
  insertUser,
  replacePasswordRevokingOthers,
  setPasswordHash,
  storeKeyPair,
} from './queries'
import type { Authenticated, SessionStore } from './sessions'
import { SignInLimits } from './sign-in-limits'

export const INVALID_CREDENTIALS = 'Invalid username or password'
const KEYS_TOGETHER_MISSING = 'publicKey and privateKey are required'

const conflictMessages = {
  username: 'Username is already taken',
  email: 'Email is already registered',
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
  password: string
  /** The browser's new key pair: optional (older clients, the seed), but both or neither. */
  publicKey?: string
  privateKey?: string
}

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

  constructor(deps: AccountDeps) {
    this.config = deps.config
    this.db = deps.db
    this.passwords = deps.passwords
    this.sessions = deps.sessions
    this.rateLimits = deps.rateLimits
    this.signIn = new SignInLimits(deps.rateLimits, deps.config)
  }

  async register(input: Registration, userAgent: string | undefined, address: string): Promise<SignedIn> {
    const limit = this.config.registerLimitPerIp
    await this.rateLimits.take({ key: `register:address:${address}`, limit, what: 'registrations from this address' })
    checkLength('username', input.username, { min: LIMITS.usernameMin, max: LIMITS.usernameMax })
    const displayName = input.displayName.trim()
    if (!displayName) throw new Invalid('displayName must not be empty')
    checkLength('displayName', displayName, { max: LIMITS.displayNameMax })
    if (RESERVED_USERNAMES.has(input.username.toLowerCase())) throw new Invalid(reservedUsernameMessage(input.username))
    if (!isStrongEnough(input.password)) throw new Invalid(PASSWORD_RULE_MESSAGE)
    const keys = keyPairOf(input)

    // Checked before hashing to answer duplicates without spending a hash; the unique indexes still decide races.
    const taken = await findTakenIdentity(this.db, input.username, input.email)
    if (taken) throw new Conflict(conflictMessages[taken])

    const passwordHash = await this.passwords.hash(input.password)
    let user: UserRow
    try {
      user = await insertUser(this.db, {
        username: input.username,
        email: input.email,
        displayName,
        passwordHash,
        ...keys,
      })
    } catch (err) {
      const identity = identityByConstraint[violatedUniqueConstraint(err) ?? '']
      if (identity) throw new Conflict(conflictMessages[identity])
      throw err
    }
    // A new member: cached search answers that would list them are dropped (users/search-results.ts).
    await this.sessions.memberChanged(user.id)
    return { user, token: await this.sessions.create(user.id, userAgent) }
  }

  /** Unknown account and wrong password fail alike, in answer and in time. */
  async login(login: string, password: string, userAgent: string | undefined, address: string): Promise<SignedIn> {
    const user = await findUserByLogin(this.db, login.trim())
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
    return { user, token: await this.sessions.create(user.id, userAgent) }
  }

  /**
   * Keeps the session that made the change; every other session of the member ends. A member with message keys must
   * send their private key re-wrapped under the new password (the browser does it): the server cannot re-wrap it, and
   * a new password with the old wrapping would make the whole message history unreadable at the next sign-in.
   */
  async changePassword(
    auth: Authenticated,
    currentPassword: string,
    newPassword: string,
    rewrappedKey: string | undefined,
  ): Promise<void> {
    // Guessing the current password with a stolen token is still password guessing: the account's sign-in budget.
    const attempt = await this.signIn.attempt('password', { accountId: auth.user.id }, null, 'password change attempts')
    if (!isStrongEnough(newPassword)) throw new Invalid(PASSWORD_RULE_MESSAGE)
    // The current password first: a wrong one is always answered as such, whatever else the request lacks.
    if (!(await this.passwords.verify(auth.user.passwordHash, currentPassword))) {
      throw new Invalid('Current password is incorrect')
    }
    // Answered here from the session's row; the update below decides again from the row itself.
    const keysMismatch = () => new Invalid(rewrappedKey === undefined ? REWRAP_REQUIRED : NO_KEY_TO_REWRAP)
    if ((auth.user.wrappedPrivateKey !== null) !== (rewrappedKey !== undefined)) throw keysMismatch()
    const wrappedPrivateKey = rewrappedKey === undefined ? undefined : checkWrappedPrivateKey(rewrappedKey)
    const passwordHash = await this.passwords.hash(newPassword)
    const revoked = await replacePasswordRevokingOthers(
      this.db,
      auth.user.id,
      passwordHash,
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
