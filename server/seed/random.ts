/**
 * Seeded randomness for the demo data: the same `--seed` gives the same network shape (who follows whom, who posts
 * what, how many likes), so a benchmark run can be repeated on the same data. Ids stay random (server/db/ids.ts).
 */

/** mulberry32: tiny, fast and good enough for data generation (not for anything secret). */
export class Random {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n)
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)]
    if (item === undefined) throw new Error('pick from an empty list')
    return item
  }

  /** In place (Fisher-Yates). */
  shuffle<T>(items: T[]): void {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = this.int(i + 1)
      const held = items[i] as T
      items[i] = items[j] as T
      items[j] = held
    }
  }

  /** Standard normal (Box-Muller). */
  gauss(): number {
    const u = 1 - this.next()
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next())
  }

  /** Log-normal with the given median: long-tailed counts (followees, likes) that are mostly small. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.gauss())
  }

  /** Exponential with the given mean: delays between a post and its likes or reposts. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next())
  }
}

/**
 * Draws indices in proportion to fixed weights: a cumulative table and a binary search, O(log n) per draw, which is
 * plenty for a few million draws (an alias table would be O(1) but is not the bottleneck).
 */
export class WeightedSampler {
  private readonly cumulative: Float64Array
  readonly total: number

  constructor(weights: ArrayLike<number>) {
    this.cumulative = new Float64Array(weights.length)
    let sum = 0
    for (let i = 0; i < weights.length; i += 1) {
      sum += weights[i] ?? 0
      this.cumulative[i] = sum
    }
    if (!(sum > 0)) throw new Error('WeightedSampler needs a positive total weight')
    this.total = sum
  }

  get size(): number {
    return this.cumulative.length
  }

  draw(random: Random): number {
    const target = random.next() * this.total
    let lo = 0
    let hi = this.cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.cumulative[mid] ?? 0) > target) hi = mid
      else lo = mid + 1
    }
    return lo
  }
}

/**
 * `count` distinct indices in [0, size) other than `exclude`, drawn by weight when the sampler is given, uniformly
 * otherwise. Rejection sampling gets slow when `count` approaches `size` (most draws hit an index already taken), so above half
 * of the candidates, or when the attempt budget runs out, the rest is filled uniformly by a partial shuffle.
 */
export function distinctSample(
  random: Random,
  size: number,
  count: number,
  exclude: number,
  sampler?: WeightedSampler,
): number[] {
  const available = exclude >= 0 && exclude < size ? size - 1 : size
  const wanted = Math.min(count, available)
  const chosen = new Set<number>()
  if (wanted <= available / 2) {
    const budget = wanted * 20 + 100
    for (let attempt = 0; attempt < budget && chosen.size < wanted; attempt += 1) {
      const i = sampler ? sampler.draw(random) : random.int(size)
      if (i !== exclude) chosen.add(i)
    }
  }
  if (chosen.size < wanted) {
    // Partial Fisher-Yates over the candidates not taken yet.
    const rest: number[] = []
    for (let i = 0; i < size; i += 1) if (i !== exclude && !chosen.has(i)) rest.push(i)
    for (let k = 0; chosen.size < wanted && k < rest.length; k += 1) {
      const j = k + random.int(rest.length - k)
      const picked = rest[j] ?? 0
      rest[j] = rest[k] ?? 0
      rest[k] = picked
      chosen.add(picked)
    }
  }
  return [...chosen]
}
