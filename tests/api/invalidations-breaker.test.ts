import { describe, expect, it } from 'vitest'
import type { Invalidation, InvalidationBus } from '../../server/cache/invalidation'
import { Invalidations, PUBLISH_RETRY_MS } from '../../server/cache/invalidations'

/**
 * The publish circuit breaker against a Redis that hangs with its connection still open (no event says it is gone,
 * only publishes that never answer): the first write waits out the bound, the rest skip publishing until a try
 * goes through. tests/api/redis-outage-redis.test.ts covers a lost connection with a real Redis.
 */

/** A bus whose publishes hang until `answer()`; it records what it was asked to send. */
function hangingBus() {
  const sent: Invalidation[] = []
  let hanging = true
  const bus: InvalidationBus = {
    publish: (message) => {
      sent.push(message)
      return hanging ? new Promise(() => undefined) : Promise.resolve()
    },
    subscribe: () => undefined,
    close: async () => undefined,
  }
  return { bus, sent, answer: () => (hanging = false) }
}

describe('publishing to a Redis that hangs', () => {
  it('waits once, skips at once after that, tries again every few seconds, and drops every cache when it answers', async () => {
    const { bus, sent, answer } = hangingBus()
    const lines: string[] = []
    let now = 1_000_000
    const invalidations = new Invalidations(bus, { warn: (m) => lines.push(`warn ${m}`), info: (m) => lines.push(`info ${m}`) }, () => now)
    const applied: Invalidation['kind'][] = []
    invalidations.register({ apply: (message) => void applied.push(message.kind) })
    const like: Invalidation = { kind: 'posts-changed', postIds: ['p1'] }

    // The first write waits out the bound (500 ms) and trips the breaker.
    const first = Date.now()
    await invalidations.emit(like)
    expect(Date.now() - first).toBeGreaterThanOrEqual(450)
    expect(invalidations.publishing).toBe(false)

    // The next ones are applied here but not sent, and do not wait.
    for (let i = 0; i < 10; i += 1) await invalidations.emit(like)
    expect(sent).toHaveLength(1)
    expect(applied).toHaveLength(11)
    expect(lines).toEqual([expect.stringMatching(/^warn cache invalidations: Redis unreachable \(publishing posts-changed timed out\)/)])

    // A try after the retry interval that hangs again keeps it open, still with one log line.
    now += PUBLISH_RETRY_MS
    await invalidations.emit(like)
    expect(sent).toHaveLength(2)
    expect(invalidations.publishing).toBe(false)
    expect(lines).toHaveLength(1)

    // Redis answers again: the next try goes through, every cache here drops everything, and the others are told to.
    answer()
    now += PUBLISH_RETRY_MS
    await invalidations.emit(like)
    expect(invalidations.publishing).toBe(true)
    expect(applied.at(-1)).toBe('everything-changed')
    expect(sent.map((m) => m.kind).slice(-2)).toEqual(['posts-changed', 'everything-changed'])
    expect(lines.at(-1)).toMatch(/^info cache invalidations: Redis reachable again/)
  })

  it('skips without trying while the bus says its connection is down, and resets when it says it is back', async () => {
    const sent: Invalidation[] = []
    let tell: (up: boolean) => void = () => undefined
    const bus: InvalidationBus = {
      publish: async (message) => void sent.push(message),
      subscribe: () => undefined,
      onConnectionChange: (listener) => (tell = listener),
      close: async () => undefined,
    }
    const invalidations = new Invalidations(bus)
    const applied: Invalidation['kind'][] = []
    invalidations.register({ apply: (message) => void applied.push(message.kind) })

    tell(false)
    for (let i = 0; i < 5; i += 1) await invalidations.emit({ kind: 'member-changed', userId: 'u1' })
    expect(sent).toEqual([])
    tell(true)
    await Promise.resolve()
    expect(applied.at(-1)).toBe('everything-changed')
    expect(sent).toEqual([{ kind: 'everything-changed' }])
  })
})
