import { randomUUID } from 'node:crypto'
import { createClient } from 'redis'
import { type Invalidation, type InvalidationBus, type InvalidationHandler, parseInvalidation } from './invalidation'

export const INVALIDATION_CHANNEL = 'wren:cache-invalidations'

/** What the bus uses of its two connections (the client's own generic types differ between a client and its duplicate). */
interface Connection {
  close(): Promise<void>
}
interface Publisher extends Connection {
  publish(channel: string, message: string): Promise<unknown>
}

interface Envelope {
  from: string
  message: Invalidation
}

/**
 * Invalidations over Redis pub/sub, so every process sharing the database drops what another one changed. Each
 * process tags what it sends and ignores its own echo. Pub/sub is fire-and-forget: a process that is disconnected
 * misses messages, which is why every cache also has a TTL (docs/posts-and-feed.md, "Caches").
 */
export class RedisBus implements InvalidationBus {
  private readonly id = randomUUID()
  private readonly handlers = new Set<InvalidationHandler>()

  private constructor(
    private readonly pub: Publisher,
    private readonly sub: Connection,
    private readonly channel: string,
  ) {}

  static async connect(url: string, onError: (err: Error) => void, channel = INVALIDATION_CHANNEL): Promise<RedisBus> {
    const pub = createClient({ url })
    const sub = pub.duplicate()
    // Without listeners a lost connection would be an uncaught 'error' event; the client reconnects by itself.
    pub.on('error', onError)
    sub.on('error', onError)
    await Promise.all([pub.connect(), sub.connect()])
    const bus = new RedisBus(pub, sub, channel)
    await sub.subscribe(channel, (raw) => bus.receive(raw))
    return bus
  }

  private receive(raw: string): void {
    let envelope: Partial<Envelope>
    try {
      envelope = JSON.parse(raw) as Partial<Envelope>
    } catch {
      return
    }
    if (envelope.from === this.id) return
    const message = parseInvalidation(envelope.message)
    if (!message) return
    for (const handler of this.handlers) handler(message)
  }

  async publish(message: Invalidation): Promise<void> {
    const envelope: Envelope = { from: this.id, message }
    await this.pub.publish(this.channel, JSON.stringify(envelope))
  }

  subscribe(handler: InvalidationHandler): void {
    this.handlers.add(handler)
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.sub.close(), this.pub.close()])
  }
}
