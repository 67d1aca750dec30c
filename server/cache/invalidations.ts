import type { Invalidation, InvalidationBus } from './invalidation'

/** Something holding cached state that an invalidation may concern. */
export interface InvalidationTarget {
  apply(message: Invalidation): void
}

export interface InvalidationsLog {
  warn(message: string): void
  info(message: string): void
}

// A write has committed by the time it publishes; a Redis that hangs must not hang the request that made it.
const PUBLISH_TIMEOUT_MS = 500
/** While publishing is off after a failure with the connection still open (a hung Redis), one try this often. */
export const PUBLISH_RETRY_MS = 2_000

/**
 * The one way writes announce changes: `emit` applies a message to this process's caches synchronously (so the
 * writer's own next read, and every other request in this process, sees the change at once) and then publishes it
 * for the other processes, whose bus subscription applies it there.
 *
 * Publishing sits behind a circuit breaker. Without it, every write waited out the publish bound while Redis was
 * gone, and a like (two or three messages) waited twice or three times. The breaker opens when the bus reports its
 * connection lost or a publish fails or times out; while open, writes skip publishing at once (one log line for the
 * whole outage). It closes when the bus reports its connection back, or, for a Redis that hung with the connection
 * still open, when a try made every PUBLISH_RETRY_MS goes through. Either way messages were missed, sent and
 * received, so on closing this process drops every cached entry and tells the others to do the same
 * (`everything-changed`); until then the other processes lean on their caches' TTLs (docs/architecture.md).
 */
export class Invalidations {
  private readonly targets: InvalidationTarget[] = []
  private open = false
  /** Whether the bus itself says it is connected; tries are pointless while it says not. */
  private connected = true
  private nextTryAt = 0

  constructor(
    private readonly bus: InvalidationBus,
    private readonly log: InvalidationsLog = { warn: () => undefined, info: () => undefined },
    private readonly now: () => number = Date.now,
  ) {
    bus.subscribe((message) => this.applyLocally(message))
    bus.onConnectionChange?.((up) => {
      this.connected = up
      if (up) this.recover()
      else this.trip('its connection was lost')
    })
  }

  register(target: InvalidationTarget): void {
    this.targets.push(target)
  }

  /** Whether writes are publishing right now (false while the breaker is open). */
  get publishing(): boolean {
    return !this.open
  }

  /** For changes only this process can know about (e.g. view counts it just flushed). */
  applyLocally(message: Invalidation): void {
    for (const target of this.targets) target.apply(message)
  }

  async emit(message: Invalidation): Promise<void> {
    this.applyLocally(message)
    if (this.open && (!this.connected || this.now() < this.nextTryAt)) return
    const trying = this.open
    try {
      await this.publish(message)
      if (trying) this.recover()
    } catch (err) {
      this.trip(err instanceof Error ? err.message : String(err))
    }
  }

  private async publish(message: Invalidation): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`publishing ${message.kind} timed out`)), PUBLISH_TIMEOUT_MS)
    })
    try {
      await Promise.race([this.bus.publish(message), timeout])
    } finally {
      clearTimeout(timer)
    }
  }

  private trip(reason: string): void {
    this.nextTryAt = this.now() + PUBLISH_RETRY_MS
    if (this.open) return
    this.open = true
    this.log.warn(
      `cache invalidations: Redis unreachable (${reason}); not publishing until it is back, other processes rely on their caches' TTLs`,
    )
  }

  private recover(): void {
    if (!this.open) return
    this.open = false
    this.log.info('cache invalidations: Redis reachable again; every cache dropped, publishing resumed')
    const reset: Invalidation = { kind: 'everything-changed' }
    this.applyLocally(reset)
    // Not awaited: nothing waits on it, and a failure trips the breaker again like any other.
    this.publish(reset).catch((err: unknown) => this.trip(err instanceof Error ? err.message : String(err)))
  }

  close(): Promise<void> {
    return this.bus.close()
  }
}
