/**
 * A bounded (approximately) least-recently-used map with a time-to-live per entry: the building block of every in-memory cache of
 * the app. Bounded by entry count and, optionally, by a weight per entry (a cached timeline weighs as many followees
 * as it indexes), so memory stays predictable whatever the traffic.
 *
 * `generation` guards against the classic fill race: a reader loads a value from the database, a writer commits a
 * change and invalidates, then the reader stores the value it loaded before the change. Readers take `generation`
 * before loading and store with `setIfFresh`, which refuses when any invalidation happened in between. Evictions for
 * capacity or age do not count as invalidations.
 */
export interface LruOptions<K, V> {
  maxEntries: number
  /** After this an entry is gone. */
  ttlMs: number
  /**
   * After this (default: ttlMs) an entry is still served but reported stale, so its owner reloads it in the
   * background: a hot entry never expires under the feet of every request waiting on it.
   */
  refreshMs?: number
  /** Total weight allowed; `weigh` gives each entry's (default 1 each, i.e. the entry count). */
  maxWeight?: number
  weigh?: (value: V) => number
  /** Told about every entry that leaves, for whatever reason (to keep side indexes in step). */
  onRemove?: (key: K, value: V) => void
  now?: () => number
}

interface Entry<V> {
  value: V
  expiresAt: number
  refreshAt: number
  weight: number
  /** Read since it last reached the old end (second chance, see shrink). */
  used: boolean
}

export class Lru<K, V> {
  private readonly entries = new Map<K, Entry<V>>()
  private weight = 0
  private gen = 0
  private readonly now: () => number

  constructor(private readonly options: LruOptions<K, V>) {
    this.now = options.now ?? Date.now
  }

  get size(): number {
    return this.entries.size
  }

  /** Take before loading what you will store with `setIfFresh`. */
  get generation(): number {
    return this.gen
  }

  /** Whether an entry is held (expired or not), without marking it used. */
  has(key: K): boolean {
    return this.entries.has(key)
  }

  get(key: K): V | undefined {
    return this.lookup(key)?.value
  }

  /** The value, and whether it is due for a background reload (`refreshMs`). */
  lookup(key: K): { value: V; stale: boolean } | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    const now = this.now()
    if (entry.expiresAt <= now) {
      this.remove(key, entry)
      return undefined
    }
    // Only marked: moving it to the young end on every read (delete + set) costs more than the read itself on the
    // hot path; eviction gives marked entries a second chance instead (the CLOCK approximation of LRU).
    entry.used = true
    return { value: entry.value, stale: entry.refreshAt <= now }
  }

  /** Stores unless an invalidation happened since `generation` was read (the value may predate it). */
  setIfFresh(key: K, value: V, generation: number): boolean {
    if (generation !== this.gen || this.options.maxEntries <= 0) return false
    const old = this.entries.get(key)
    if (old) this.remove(key, old)
    const weight = this.options.weigh?.(value) ?? 1
    const now = this.now()
    this.entries.set(key, {
      value,
      expiresAt: now + this.options.ttlMs,
      refreshAt: now + (this.options.refreshMs ?? this.options.ttlMs),
      weight,
      used: false,
    })
    this.weight += weight
    this.shrink()
    return true
  }

  /** Drops one entry and fails fills in flight. */
  invalidate(key: K): void {
    this.gen += 1
    const entry = this.entries.get(key)
    if (entry) this.remove(key, entry)
  }

  invalidateWhere(test: (key: K, value: V) => boolean): void {
    this.gen += 1
    for (const [key, entry] of [...this.entries]) if (test(key, entry.value)) this.remove(key, entry)
  }

  clear(): void {
    this.gen += 1
    for (const [key, entry] of [...this.entries]) this.remove(key, entry)
  }

  private shrink(): void {
    const maxWeight = this.options.maxWeight ?? Number.POSITIVE_INFINITY
    while (this.entries.size > this.options.maxEntries || this.weight > maxWeight) {
      const oldest = this.entries.entries().next()
      if (oldest.done) return
      const [key, entry] = oldest.value
      if (entry.used) {
        // Map keeps insertion order: re-inserting moves it to the young end. Each entry is spared once per pass.
        entry.used = false
        this.entries.delete(key)
        this.entries.set(key, entry)
        continue
      }
      this.remove(key, entry)
    }
  }

  private remove(key: K, entry: Entry<V>): void {
    this.entries.delete(key)
    this.weight -= entry.weight
    this.options.onRemove?.(key, entry.value)
  }
}
