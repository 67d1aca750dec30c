/**
 * The server's idea of "now", as one service: session expiry reads it, so tests can move time (buildApp's `clock`)
 * instead of waiting days. Everything else may keep Date.now.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }
