import { Versions } from './versions'

/**
 * A bounded (approximately) least-recently-used map with a time-to-live per entry: the building block of every in-memory cache of
 * the app. Bounded by entry count and, optionally, by a weight per entry (a cached timeline weighs as many followees
 * as it indexes), so memory stays predictable whatever the traffic.
 *
 * `generation` guards against the classic fill race: a reader loads a value from the database, a writer commits a
 * change and invalidates, then the reader stores the value it loaded before the change. Readers take `generation`
 * before loading and store with `setIfFresh`, which refuses when that key was invalidated in between, or everything
 * was (`invalidateWhere`, `clear`): server/cache/versions.ts. Evictions for capacity or age do not count as
 * invalidations.
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
  /** The record of changes, when the owner shares its clock with keys of its own (timelines: their sources). */
  versions?: Versions<K>
}

/** What a cache did since it was made: the mixed bench reports hit rates from these (bench/mixed.ts). */
export interface LruStats {
  hits: number
  misses: number
  /** Fills stored, and fills refused because what they loaded changed meanwhile (`setIfFresh`). */
  stored: number
  refused: number
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
  private readonly versions: Versions<K>
  private readonly counts: LruStats = { hits: 0, misses: 0, stored: 0, refused: 0 }
  private readonly now: () => number

  constructor(private readonly options: LruOptions<K, V>) {
    this.now = options.now ?? Date.now
    this.versions = options.versions ?? new Versions<K>()
  }

  get size(): number {
    return this.entries.size
  }

  get stats(): LruStats {
    return { ...this.counts }
  }

  /** Take before loading what you will store with `setIfFresh`. */
  get generation(): number {
    return this.versions.now
  }

  /** Whether `key` was not invalidated (alone or with everything) since `generation` was read. */
  unchangedSince(key: K, generation: number): boolean {
    return this.versions.unchangedSince(key, generation)
  }

  /** Whether an entry is held (expired or not), without marking it used. */
  has(key: K): boolean {
    return this.entries.has(key)
  }

  /** The value held (expired or not), without counting a lookup or marking it used. */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value
  }

  get(key: K): V | undefined {
    return this.lookup(key)?.value
  }

  /** The value, and whether it is due for a background reload (`refreshMs`). */
  lookup(key: K): { value: V; stale: boolean } | undefined {
    const entry = this.entries.get(key)
    if (!entry) {
      this.counts.misses += 1
      return undefined
    }
    const now = this.now()
    if (entry.expiresAt <= now) {
      this.remove(key, entry)
      this.counts.misses += 1
      return undefined
    }
    this.counts.hits += 1
    // Only marked: moving it to the young end on every read (delete + set) costs more than the read itself on the
    // hot path; eviction gives marked entries a second chance instead (the CLOCK approximation of LRU).
    entry.used = true
    return { value: entry.value, stale: entry.refreshAt <= now }
  }

  /** Stores unless the key was invalidated since `generation` was read (the value may predate it). */
  setIfFresh(key: K, value: V, generation: number): boolean {
    if (this.options.maxEntries <= 0) return false
    if (!this.versions.unchangedSince(key, generation)) {
      this.counts.refused += 1
      return false
    }
    this.counts.stored += 1
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

  /**
   * Swaps the value of an entry that still holds `expected`, keeping its age (when it reloads and when it goes): for
   * an entry brought up to date in part, whose rest is as old as before. False when the entry is gone or holds
   * another value; the caller checks freshness first (`unchangedSince`).
   */
  replace(key: K, expected: V, value: V): boolean {
    const entry = this.entries.get(key)
    if (!entry || entry.value !== expected) return false
    const weight = this.options.weigh?.(value) ?? 1
    this.weight += weight - entry.weight
    entry.value = value
    entry.weight = weight
    this.shrink()
    return true
  }

  /** Drops one entry and fails fills in flight. */
  invalidate(key: K): void {
    this.versions.changed(key)
    const entry = this.entries.get(key)
    if (entry) this.remove(key, entry)
  }

  invalidateWhere(test: (key: K, value: V) => boolean): void {
    this.versions.changedAll()
    for (const [key, entry] of [...this.entries]) if (test(key, entry.value)) this.remove(key, entry)
  }

  clear(): void {
    this.versions.changedAll()
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
