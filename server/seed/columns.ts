/**
 * Append-only typed-array columns. The plan for a million posts holds a few million likes; as typed arrays that is
 * tens of megabytes, as objects it would be hundreds and slow to build.
 */

type Typed = Int32Array | Float64Array

abstract class Growable<T extends Typed> {
  length = 0
  protected data: T

  constructor(capacity: number) {
    this.data = this.allocate(Math.max(16, capacity))
  }

  protected abstract allocate(size: number): T

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = this.allocate(this.data.length * 2)
      bigger.set(this.data)
      this.data = bigger
    }
    this.data[this.length] = value
    this.length += 1
  }

  at(i: number): number {
    return this.data[i] ?? 0
  }

  /** The filled part, without copying. */
  view(): T {
    return this.data.subarray(0, this.length) as T
  }
}

export class IntColumn extends Growable<Int32Array> {
  protected allocate(size: number): Int32Array {
    return new Int32Array(size)
  }
}

export class TimeColumn extends Growable<Float64Array> {
  protected allocate(size: number): Float64Array {
    return new Float64Array(size)
  }
}

/**
 * Lists per owner stored back to back (compressed sparse rows): `start[i]..start[i+1]` indexes `items` for owner i.
 * Owners must be appended in order (0, 1, 2, ...), which is how the generators produce them.
 */
export class ListColumn {
  private readonly starts: IntColumn
  readonly items: IntColumn

  constructor(owners: number, items: number) {
    this.starts = new IntColumn(owners + 1)
    this.starts.push(0)
    this.items = new IntColumn(items)
  }

  /** Closes the current owner's list and opens the next one. */
  close(): void {
    this.starts.push(this.items.length)
  }

  get owners(): number {
    return this.starts.length - 1
  }

  start(owner: number): number {
    return this.starts.at(owner)
  }

  end(owner: number): number {
    return this.starts.at(owner + 1)
  }

  count(owner: number): number {
    return this.end(owner) - this.start(owner)
  }
}
