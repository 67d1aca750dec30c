import type { Invalidation, InvalidationBus } from './invalidation'

/** Something holding cached state that an invalidation may concern. */
export interface InvalidationTarget {
  apply(message: Invalidation): void
}

// A write has committed by the time it publishes; a Redis that hangs must not hang the request that made it.
const PUBLISH_TIMEOUT_MS = 500

/**
 * The one way writes announce changes: `emit` applies a message to this process's caches synchronously (so the
 * writer's own next read, and every other request in this process, sees the change at once) and then publishes it
 * for the other processes, whose bus subscription applies it there.
 */
export class Invalidations {
  private readonly targets: InvalidationTarget[] = []

  constructor(
    private readonly bus: InvalidationBus,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    bus.subscribe((message) => this.applyLocally(message))
  }

  register(target: InvalidationTarget): void {
    this.targets.push(target)
  }

  /** For changes only this process can know about (e.g. view counts it just flushed). */
  applyLocally(message: Invalidation): void {
    for (const target of this.targets) target.apply(message)
  }

  async emit(message: Invalidation): Promise<void> {
    this.applyLocally(message)
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`publishing ${message.kind} timed out`)), PUBLISH_TIMEOUT_MS)
    })
    try {
      await Promise.race([this.bus.publish(message), timeout])
    } catch (err) {
      // The other processes fall back on their caches' TTLs (docs/posts-and-feed.md, "Caches").
      this.onError(err)
    } finally {
      clearTimeout(timer)
    }
  }

  close(): Promise<void> {
    return this.bus.close()
  }
}
