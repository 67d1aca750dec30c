import { randomUUID } from 'node:crypto'
import { createClient } from 'redis'
import { type Invalidation, type InvalidationBus, type InvalidationHandler, parseInvalidation } from './invalidation'

export const INVALIDATION_CHANNEL = 'wren:cache-invalidations'

/** What the bus uses of its two connections (the client's own generic types differ between a client and its duplicate). */
interface Connection {
  close(): Promise<void>
  on(event: 'ready' | 'end', listener: () => void): unknown
  on(event: 'error', listener: (err: Error) => void): unknown
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
 * misses messages, which is why every cache also has a TTL and why the bus reports its connection going and coming
 * back (Invalidations drops everything on return: server/cache/invalidations.ts).
 */
export class RedisBus implements InvalidationBus {
  private readonly id = randomUUID()
  private readonly handlers = new Set<InvalidationHandler>()
  private readonly connectionListeners = new Set<(up: boolean) => void>()
  /** Which of the two connections are ready; the bus is up only when both are (a lost subscriber misses messages). */
  private readonly ready = new Map<Connection, boolean>()

  private constructor(
    private readonly pub: Publisher,
    private readonly sub: Connection,
    private readonly channel: string,
  ) {
    for (const connection of [pub, sub]) {
      this.ready.set(connection, true)
      // node-redis reconnects by itself and says 'error' at every failed attempt: only the changes matter here.
      connection.on('error', () => this.mark(connection, false))
      connection.on('end', () => this.mark(connection, false))
      connection.on('ready', () => this.mark(connection, true))
    }
  }

  static async connect(url: string, channel = INVALIDATION_CHANNEL): Promise<RedisBus> {
    // No offline queue: while the connection is down a publish fails at once instead of waiting for a reconnect
    // (which would hold the request that made the change). The subscription is renewed by the client on reconnect.
    const pub = createClient({ url, disableOfflineQueue: true })
    const sub = pub.duplicate()
    // Until the bus listens itself, a failed attempt must not be an uncaught 'error' event (connect() reports it).
    const ignore = () => undefined
    pub.on('error', ignore)
    sub.on('error', ignore)
    await Promise.all([pub.connect(), sub.connect()])
    const bus = new RedisBus(pub, sub, channel)
    pub.off('error', ignore)
    sub.off('error', ignore)
    await sub.subscribe(channel, (raw) => bus.receive(raw))
    return bus
  }

  private mark(connection: Connection, up: boolean): void {
    const wasUp = this.up
    this.ready.set(connection, up)
    if (this.up !== wasUp) for (const listener of this.connectionListeners) listener(this.up)
  }

  private get up(): boolean {
    return [...this.ready.values()].every(Boolean)
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

  onConnectionChange(listener: (up: boolean) => void): void {
    this.connectionListeners.add(listener)
  }

  async close(): Promise<void> {
    this.connectionListeners.clear()
    await Promise.allSettled([this.sub.close(), this.pub.close()])
  }
}
