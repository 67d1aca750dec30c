import type { RateLimit } from '../config'
import { tooManyRequests } from './errors'

/**
 * A small in-memory sliding-window limiter: each key keeps the times of its recent attempts (at most `max` of them),
 * so memory is bounded by keys x limit and no attempt is forgotten at a window edge the way a fixed window would.
 *
 * In memory on purpose: the limits guard password guessing on one process; several processes behind one balancer
 * each apply their own (the effective limit multiplies by the process count, noted in the README).
 */

/**
 * The part of a client address a per-address limit should count. IPv4 addresses count alone; an IPv6 host usually
 * owns a whole /64 (2^64 addresses to rotate through), so IPv6 counts per /64. IPv4-mapped IPv6 is read as IPv4.
 */
export function addressKey(ip: string): string {
  const address = ip.replace(/%.*$/, '').toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)
  if (mapped?.[1]) return mapped[1]
  if (!address.includes(':')) return address
  const [head = '', tail] = address.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

interface Bucket {
  windowMs: number
  hits: number[]
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()
  private readonly sweeper: NodeJS.Timeout | undefined

  constructor(
    private readonly enabled: boolean,
    // Read through Date at each call (not Date.now captured here), so tests can move the clock with fake timers.
    private readonly now: () => number = () => Date.now(),
  ) {
    if (enabled) {
      // Forget idle keys once a minute; unref so the timer never keeps the process alive.
      this.sweeper = setInterval(() => this.sweep(), 60_000)
      this.sweeper.unref()
    }
  }

  /**
   * Counts one attempt for `key`, or throws 429 (with Retry-After) when the window is full. A refused attempt is not
   * counted, so waiting out Retry-After always works.
   */
  hit(key: string, limit: RateLimit, message: (seconds: number) => string): void {
    if (!this.enabled) return
    const now = this.now()
    const bucket = this.buckets.get(key) ?? { windowMs: limit.windowMs, hits: [] }
    bucket.windowMs = limit.windowMs
    bucket.hits = bucket.hits.filter((t) => t > now - limit.windowMs)
    if (bucket.hits.length >= limit.max) {
      const oldest = bucket.hits[bucket.hits.length - limit.max] ?? now
      const seconds = Math.max(1, Math.ceil((oldest + limit.windowMs - now) / 1000))
      throw tooManyRequests(message(seconds), seconds)
    }
    bucket.hits.push(now)
    this.buckets.set(key, bucket)
  }

  /** Gives back the latest attempt for `key`: a successful login does not count against anyone. */
  refund(key: string): void {
    const bucket = this.buckets.get(key)
    if (!bucket) return
    bucket.hits.pop()
    if (bucket.hits.length === 0) this.buckets.delete(key)
  }

  sweep(): void {
    const now = this.now()
    for (const [key, bucket] of this.buckets) {
      const newest = bucket.hits[bucket.hits.length - 1] ?? 0
      if (newest <= now - bucket.windowMs) this.buckets.delete(key)
    }
  }

  close(): void {
    clearInterval(this.sweeper)
    this.buckets.clear()
  }
}
