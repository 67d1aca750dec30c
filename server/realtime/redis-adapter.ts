import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter'
import type { FastifyBaseLogger } from 'fastify'

/** What is used here of a `redis` client (its generic types differ between a client and its duplicate). */
interface RedisClient {
  info(section?: string): Promise<unknown>
  readonly isReady: boolean
}

/** socket.io's adapter factory, as `io.adapter()` takes it. */
type AdapterFactory = ReturnType<typeof createAdapter>

/** What the socket server needs of the cross-process adapter. */
export interface CrossProcessAdapter {
  factory: AdapterFactory
  /** `sharded`: one channel per member room (Redis 7+); `classic`: one channel every process hears. */
  mode: 'sharded' | 'classic'
  /**
   * Resolves once this process listens to the rooms' channels, so an event published by another process right after
   * a socket joined is not missed. Immediate in the classic mode (one channel, subscribed at start) and while Redis is
   * unreachable (the subscription waits for it; the socket still gets this process's own events).
   */
  subscribed(rooms: readonly string[]): Promise<void>
}

/** The part of the `redis` client the sharded adapter calls to (un)subscribe, which is wrapped here. */
interface ShardedSubscriber {
  sSubscribe(channels: string | string[], listener: unknown, bufferMode?: boolean): Promise<void>
  sUnsubscribe(channels?: string | string[], listener?: unknown, bufferMode?: boolean): Promise<void>
}

const CHANNEL_PREFIX = 'socket.io'
/** The sharded adapter's channel of one room in the default namespace. */
const roomChannel = (room: string) => `${CHANNEL_PREFIX}#/#${room}#`

/** The server's `redis_version`, from INFO. */
export async function redisVersion(client: RedisClient): Promise<string> {
  const info = String(await client.info('server'))
  return /^redis_version:(\S+)/m.exec(info)?.[1] ?? '0'
}

export const shardedPubSubSupported = (version: string) => Number(version.split('.')[0]) >= 7

/**
 * Events to a member's room travel only to the processes that hold a socket of that member: Redis 7's sharded pub/sub
 * with a channel per room (`subscriptionMode: 'dynamic'`: a process subscribes to a room's channel when the room's
 * first socket joins it and unsubscribes when its last one leaves). An emit must name one room for this (several rooms
 * go to the namespace's channel, which every process hears), so RealtimeEvents emits once per member.
 *
 * Two changes to the library's behaviour:
 * - the local sockets get a broadcast at once: the library delivers them only after Redis has acknowledged the
 *   publish, which puts a Redis round trip (or, while Redis is gone, the whole outage) before same-process delivery.
 *   The classic adapter never waited either;
 * - the (un)subscriptions the library starts and never awaits are caught (a closed or lost client would reject them
 *   unhandled) and remembered, so `subscribed()` can wait for them.
 *
 * An older Redis has no sharded pub/sub: the classic adapter then (every event to every process), with one warning.
 */
export async function crossProcessAdapter(
  pub: RedisClient,
  sub: RedisClient,
  log: FastifyBaseLogger,
): Promise<CrossProcessAdapter> {
  const version = await redisVersion(pub)
  if (!shardedPubSubSupported(version)) {
    log.warn(
      `Redis ${version} has no sharded pub/sub (7.0 or later): realtime events go to every server process, not only to those holding the member's sockets`,
    )
    return { factory: createAdapter(pub, sub), mode: 'classic', subscribed: () => Promise.resolve() }
  }

  const pending = new Map<string, Promise<void>>()
  const subscriber = sub as unknown as ShardedSubscriber
  const sSubscribe = subscriber.sSubscribe.bind(subscriber)
  const sUnsubscribe = subscriber.sUnsubscribe.bind(subscriber)
  subscriber.sSubscribe = (channels, listener, bufferMode) => {
    const done = sSubscribe(channels, listener, bufferMode).catch((err: unknown) => {
      log.debug({ err }, 'realtime: a room subscription did not complete')
    })
    for (const channel of [channels].flat()) {
      pending.set(channel, done)
      void done.then(() => {
        if (pending.get(channel) === done) pending.delete(channel)
      })
    }
    return done
  }
  subscriber.sUnsubscribe = (channels, listener, bufferMode) =>
    sUnsubscribe(channels, listener, bufferMode).catch((err: unknown) => {
      log.debug({ err }, 'realtime: a room unsubscription did not complete')
    })

  const sharded = createShardedAdapter(pub, sub, { channelPrefix: CHANNEL_PREFIX, subscriptionMode: 'dynamic' })
  // socket.io calls it with `new`: a function, not an arrow; the object it returns is the adapter.
  const factory = function shardedAdapter(nsp: unknown) {
    const adapter = sharded(nsp) as unknown as { doPublish(message: unknown): Promise<string> }
    const publish = adapter.doPublish.bind(adapter)
    adapter.doPublish = (message) => {
      // Errors were only logged by the library too (a lost Redis): local delivery never depends on the publish.
      publish(message).catch((err: unknown) => log.debug({ err }, 'realtime: a publish did not reach Redis'))
      return Promise.resolve('')
    }
    return adapter
  } as unknown as AdapterFactory
  return {
    factory,
    mode: 'sharded',
    subscribed: async (rooms) => {
      if (!sub.isReady) return
      await Promise.all(rooms.map((room) => pending.get(roomChannel(room))))
    },
  }
}
