/**
 * Caps how many async tasks run at once; the rest wait in arrival order. Used around argon2, whose every hash holds
 * ~19 MiB and a libuv thread for ~80 ms: unbounded, a burst of logins would exhaust memory and starve other work.
 */
export class Semaphore {
  private running = 0
  private readonly waiting: Array<() => void> = []

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`Semaphore limit must be a positive integer`)
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else {
      this.running += 1
    }
    try {
      return await task()
    } finally {
      // Hand the slot straight to the next waiter (running stays the same) or free it.
      const next = this.waiting.shift()
      if (next) next()
      else this.running -= 1
    }
  }
}
