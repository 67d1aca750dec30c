import type { Config } from '../../config'
import type { RateLimiter, Taken } from '../../lib/rate-limiter'

/**
 * What a sign-in attempt proves. Each kind has its own bucket per account, so codes guessed at a second factor do not
 * spend the password budget (nor the other way round); the per-address bucket is shared by every kind.
 */
export type Proof = 'password' | 'second-factor'

/** Who an attempt is about: the account the typed name resolved to, or (no such account) the name itself. */
export type Claimant = { accountId: string } | { unknownName: string }

const claimantKey = (claimant: Claimant) =>
  'accountId' in claimant ? `account:${claimant.accountId}` : `name:${claimant.unknownName.trim().toLowerCase()}`

/**
 * The one limiter for proving who one is: sign-in and the current password of a password change. Counted per
 * resolved account, so a username and the email of the same account are one budget, plus per client address
 * (server/http/rate-limit.ts `addressKey`) when there is one. Only failures count: the caller refunds a success.
 */
export class SignInLimits {
  constructor(
    private readonly limits: RateLimiter,
    private readonly config: Pick<Config, 'loginLimitPerIp' | 'loginLimitPerAccount' | 'secondFactorLimitPerAccount'>,
  ) {}

  attempt(proof: Proof, claimant: Claimant, address: string | null, what: string): Promise<Taken> {
    // Six-digit codes are guessed far faster than passwords: their bucket is smaller (5 per 15 minutes by default).
    const limit = proof === 'second-factor' ? this.config.secondFactorLimitPerAccount : this.config.loginLimitPerAccount
    const account = { key: `sign-in:${proof}:${claimantKey(claimant)}`, limit, what }
    if (address === null) return this.limits.take(account)
    return this.limits.take({ key: `sign-in:address:${address}`, limit: this.config.loginLimitPerIp, what }, account)
  }
}
