/** Seeded randomness for the load process: the same seed draws the same members and writes in every run. */

/** mulberry32: a small, fast 32-bit generator, good enough to pick members. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Ranks 0 .. n-1 drawn with P(rank k) proportional to 1 / (k + 1)^exponent: a few members very active, thousands
 * seen now and then. Inverse CDF over a cumulative table (n floats) and a binary search per draw.
 */
export function zipfSampler(n: number, exponent: number, random: () => number): () => number {
  const cumulative = new Float64Array(n)
  let sum = 0
  for (let k = 0; k < n; k += 1) {
    sum += 1 / (k + 1) ** exponent
    cumulative[k] = sum
  }
  return () => {
    const target = random() * sum
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((cumulative[mid] ?? 0) < target) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/** Fisher-Yates with the given generator. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1))
    const a = out[i] as T
    out[i] = out[j] as T
    out[j] = a
  }
  return out
}
