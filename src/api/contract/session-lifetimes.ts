// How long a session lasts, in one place for both sides: the server decides expiry with these (server/modules/auth/
// sessions.ts), docs/product.md states them in words. A session ends at the first of its absolute end (fixed at
// sign-in) and its idle limit (counted from its last use, which the server records to the minute).

const DAY_MS = 24 * 60 * 60 * 1000

export const SESSION_LIFETIMES = {
  /** "Remember me" (and every registration): the token is kept across browser restarts. */
  remembered: { absoluteMs: 90 * DAY_MS, idleMs: 30 * DAY_MS },
  /**
   * Without "Remember me": the token lives in the tab (sessionStorage) and the server ends it after a day unused. A
   * tab kept open and busy still signs in again after a week: a token copied out of it is not good for months.
   */
  unremembered: { absoluteMs: 7 * DAY_MS, idleMs: DAY_MS },
} as const

export const lifetimeOf = (remember: boolean) =>
  remember ? SESSION_LIFETIMES.remembered : SESSION_LIFETIMES.unremembered
