import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'
import { createClient } from 'redis'
import type { RateLimit } from '../config'
import { TooMany } from './domain-errors'

/**
 * Every rate limit of the server goes through this one facade: login and registration, messages, and the per-member
 * write limits (docs/security.md, "Rate limits"). A call site is one line: `await rateLimits.take(charge)`.
 *
 * Counting is rate-limiter-flexible's, chosen over @fastify/rate-limit because our limits are rules services apply
 * after they know who and how much (the resolved account of a sign-in, the bytes of a post's media), not per-route
 * request counts; it takes the `redis` package we already use (its Redis store for @fastify/rate-limit wants
 * ioredis), counts any number of points (bytes), gives points back (`reward`), and falls back to memory by itself
 * (`insuranceLimiter`). Windows are fixed: one atomic INCR with an expiry per key in Redis, one round trip.
 *
 * With a Redis URL every process counts in the same keys, so a limit holds for the whole site however many processes
 * serve it. While Redis is unreachable each process counts in its own memory (logged once, not per request) and goes
 * back to Redis when it returns; what was counted in memory meanwhile is not carried over.
 */

/**
 * One thing to count: `points` (default 1; bytes for media) against `limit` under `key`. Keys read
 * `<area>:<limit>:<subject>` ("sign-in:address:203.0.113.5", "writes:posts:<member id>"): the first two parts name
 * the limit (`limitName`), the rest whom it counts.
 */
export interface Charge {
  key: string
  limit: RateLimit
  /** Completes "Too many ___." in the refusal: 'posts', 'login attempts'. */
  what: string
  points?: number
}

/** What a counted charge can do afterwards: give its points back when the action did not happen after all. */
export interface Taken {
  refund(): Promise<void>
}

export interface RateLimiterOptions {
  /** false (RATE_LIMITS=off): nothing is counted, every take succeeds at once. */
  enabled: boolean
  /** Redis shared by every process; unset: this process's memory. */
  redisUrl?: string | undefined
  /** Prefix of every Redis key, so tests and several sites on one Redis keep apart. */
  namespace?: string
  log?: { warn: (message: string) => void; info: (message: string) => void }
  /** Told the name of each limit a charge was over (metrics count refusals by limit). */
  onRefused?: (limitName: string) => void
}

/** "writes:posts:<member id>" -> "writes:posts": which limit, without whom (an address, a member id). */
export function limitName(key: string): string {
  const first = key.indexOf(':')
  const second = first < 0 ? -1 : key.indexOf(':', first + 1)
  return second < 0 ? key : key.slice(0, second)
}

const nothingTaken: Taken = { refund: () => Promise.resolve() }

/** "12 minutes": the wait rounded up to the unit a person thinks in, so retrying at that time always works. */
export function waitText(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  if (seconds < 120) return unit(seconds, 'second')
  if (seconds < 120 * 60) return unit(Math.ceil(seconds / 60), 'minute')
  if (seconds < 48 * 3600) return unit(Math.ceil(seconds / 3600), 'hour')
  return unit(Math.ceil(seconds / 86_400), 'day')
}

export const tooManyMessage = (what: string, seconds: number) => `Too many ${what}. Try again in ${waitText(seconds)}.`

interface Counter {
  consume(key: string, points: number): Promise<RateLimiterRes>
  reward(key: string, points: number): Promise<RateLimiterRes>
}

/** What the facade itself uses of its Redis client; rate-limiter-flexible is handed the client as it is. */
interface RedisHandle {
  destroy(): void
}

export class RateLimiter {
  private readonly counters = new Map<string, Counter>()
  private readonly namespace: string
  private readonly redis: RedisHandle | undefined
  private redisState: 'connecting' | 'up' | 'down' = 'connecting'

  constructor(private readonly options: RateLimiterOptions) {
    this.namespace = options.namespace ?? 'wren:limits'
    if (options.enabled && options.redisUrl) this.redis = this.connect(options.redisUrl)
  }

  private connect(url: string): RedisHandle {
    // No offline queue: while Redis is away a command fails at once (and the memory counter answers) instead of
    // waiting in the client's queue for a reconnect.
    const client = createClient({ url, disableOfflineQueue: true })
    client.on('error', (err: Error) => {
      if (this.redisState === 'down') return
      this.redisState = 'down'
      this.options.log?.warn(
        `rate limits: Redis unreachable (${err.message || 'connection failed'}); counting in this process's memory until it returns`,
      )
    })
    client.on('ready', () => {
      if (this.redisState === 'down') this.options.log?.info('rate limits: Redis reachable again; counting there')
      this.redisState = 'up'
    })
    // Never awaited: the server starts without Redis and counts in memory until the client connects (it retries).
    client.connect().catch(() => undefined)
    return client
  }

  /** One counter per distinct limit (rate-limiter-flexible fixes points and window per instance). */
  private counter(limit: RateLimit): Counter {
    const duration = Math.max(1, Math.ceil(limit.windowMs / 1000))
    const id = `${limit.max}/${duration}`
    let counter = this.counters.get(id)
    if (!counter) {
      const memory = new RateLimiterMemory({ points: limit.max, duration, keyPrefix: this.namespace })
      counter = this.redis
        ? new RateLimiterRedis({
            storeClient: this.redis,
            useRedisPackage: true,
            // Checked before each command: not ready means the memory counter answers without a try.
            rejectIfRedisNotReady: true,
            points: limit.max,
            duration,
            keyPrefix: this.namespace,
            insuranceLimiter: memory,
          })
        : memory
      this.counters.set(id, counter)
    }
    return counter
  }

  /**
   * Counts every charge at once (in parallel: one round trip), or none of them: when any is over its limit the
   * points of all are given back and TooMany says the longest wait, so a refused action costs nothing and waiting
   * out Retry-After always works.
   */
  async take(...charges: Charge[]): Promise<Taken> {
    if (!this.options.enabled || charges.length === 0) return nothingTaken
    const counted = charges.map((c) => ({ ...c, points: c.points ?? 1, counter: this.counter(c.limit) }))
    const outcomes = await Promise.allSettled(counted.map((c) => c.counter.consume(c.key, c.points)))
    const refund = () =>
      Promise.all(counted.map((c) => c.counter.reward(c.key, c.points).catch(() => undefined))).then(() => undefined)

    let refused: { what: string; seconds: number } | undefined
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status === 'fulfilled') continue
      if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason
      const seconds = Math.max(1, Math.ceil(outcome.reason.msBeforeNext / 1000))
      this.options.onRefused?.(limitName(counted[i]?.key ?? ''))
      if (!refused || seconds > refused.seconds) refused = { what: counted[i]?.what ?? '', seconds }
    }
    if (refused) {
      await refund()
      throw new TooMany(tooManyMessage(refused.what, refused.seconds), refused.seconds)
    }
    return { refund }
  }

  /** Where counts go now: Redis while its connection is up, else this process's memory (health checks, tests). */
  store(): 'redis' | 'memory' {
    return this.redis && this.redisState === 'up' ? 'redis' : 'memory'
  }

  async close(): Promise<void> {
    this.counters.clear()
    if (!this.redis) return
    // destroy, not close: close waits for pending replies, and a client still trying to connect has none to wait for.
    this.redis.destroy()
  }
}
