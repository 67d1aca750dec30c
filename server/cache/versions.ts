/**
 * When each key last changed, on a logical clock: what decides whether a value loaded from the database may still
 * be stored (the classic fill race: a reader loads, a writer commits and invalidates, then the reader stores what it
 * loaded before the change).
 *
 * Readers take `now` before loading; `unchangedSince(key, stamp)` is true when neither that key nor everything
 * changed after the stamp. Until 2026-11-25 each cache had one generation that any invalidation moved, so under a
 * write stream (the mixed bench: ~35 writes a second, each invalidating something, while a fill took 100-300 ms)
 * nearly no fill was ever stored and the caches stayed empty exactly when they mattered. Now a like
 * refuses only the fills of what it changed.
 *
 * Bounded: past `maxTracked` keys the record is reset and counts as a change of everything (fills in flight at that
 * moment are not stored; later ones are).
 */
export class Versions<K> {
  private tick = 0
  private allAt = 0
  private readonly at = new Map<K, number>()

  constructor(private readonly maxTracked = 100_000) {}

  /** Take before loading. */
  get now(): number {
    return this.tick
  }

  changed(key: K): void {
    this.tick += 1
    if (this.at.size >= this.maxTracked) {
      this.at.clear()
      this.allAt = this.tick
    }
    this.at.set(key, this.tick)
  }

  changedAll(): void {
    this.tick += 1
    this.at.clear()
    this.allAt = this.tick
  }

  unchangedSince(key: K, stamp: number): boolean {
    return stamp >= this.allAt && (this.at.get(key) ?? 0) <= stamp
  }
}
