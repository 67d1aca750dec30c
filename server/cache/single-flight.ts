/**
 * Concurrent misses of the same key share one load. Without it, when a hot entry expires (or a cold process takes
 * its first burst), every request waiting on it runs the same query at once: 50 connections on one member's feed
 * meant 50 feed statements every time the timeline's TTL ran out, which is what the p99 showed.
 */
export class SingleFlight<K, V> {
  private readonly inflight = new Map<K, Promise<V>>()

  /** `enabled` false: every caller loads for itself (with the caches off, so each request pays its own reads). */
  constructor(private readonly enabled = true) {}

  run(key: K, load: () => Promise<V>): Promise<V> {
    if (!this.enabled) return load()
    const running = this.inflight.get(key)
    if (running) return running
    const started = load().finally(() => this.inflight.delete(key))
    this.inflight.set(key, started)
    return started
  }
}
