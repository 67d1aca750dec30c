import type { Invalidation, InvalidationBus, InvalidationHandler } from '../../server/cache/invalidation'

/**
 * A stand-in for Redis pub/sub between app instances of one test process: each endpoint hears what the others
 * publish (never its own), delivered asynchronously like a real bus.
 */
export class MemoryHub {
  private readonly endpoints = new Set<Set<InvalidationHandler>>()

  endpoint(): InvalidationBus {
    const handlers = new Set<InvalidationHandler>()
    this.endpoints.add(handlers)
    return {
      publish: async (message: Invalidation) => {
        for (const other of this.endpoints) {
          if (other === handlers) continue
          queueMicrotask(() => {
            for (const handler of other) handler(structuredClone(message))
          })
        }
      },
      subscribe: (handler) => void handlers.add(handler),
      close: async () => void this.endpoints.delete(handlers),
    }
  }
}

/**
 * Retries until `check` passes or `timeoutMs` runs out (then rethrows its last failure): a message between
 * processes takes a moment, but it must arrive well within the caches' TTLs (30 s and more), so 2 s proves the bus
 * did it and not an expiry.
 */
export async function eventually(check: () => Promise<void>, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      await check()
      return
    } catch (err) {
      if (Date.now() > deadline) throw err
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
}
