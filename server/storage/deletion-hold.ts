import type { Readable } from 'node:stream'
import type { Storage } from './storage'

/**
 * Lets a backup hold file deletions back while it copies the files its database snapshot names. A delete asked for
 * during a hold is remembered and carried out when the last hold ends, so a post or account deleted after the
 * snapshot still has its files copied. A hold that is never released (a backup that hung) ends by itself after
 * `maxHoldMs`, so deletions are late at worst, never lost.
 */
export class DeletionHold {
  private holds = 0
  private readonly pending: { storage: Storage; key: string }[] = []

  constructor(
    private readonly warn: (message: string, err: unknown) => void,
    private readonly maxHoldMs = 60 * 60_000,
  ) {}

  get held(): boolean {
    return this.holds > 0
  }

  /** Starts a hold; the returned function ends it (calling it again does nothing). */
  hold(): () => Promise<void> {
    this.holds += 1
    let released = false
    const release = async () => {
      if (released) return
      released = true
      clearTimeout(timer)
      this.holds -= 1
      if (this.holds === 0) await this.flush()
    }
    const timer = setTimeout(() => {
      this.warn('a backup held file deletions past the limit; deleting them now', undefined)
      void release()
    }, this.maxHoldMs)
    timer.unref()
    return release
  }

  defer(storage: Storage, key: string): void {
    this.pending.push({ storage, key })
  }

  private async flush(): Promise<void> {
    for (const { storage, key } of this.pending.splice(0)) {
      try {
        await storage.delete(key)
      } catch (err) {
        this.warn(`could not delete ${key} after a backup`, err)
      }
    }
  }

  /** `storage` with its deletes going through this hold. */
  wrap(storage: Storage): Storage {
    return {
      put: (key: string, data: Buffer | Readable, contentType: string) => storage.put(key, data, contentType),
      delete: async (key: string) => {
        if (this.held) this.defer(storage, key)
        else await storage.delete(key)
      },
      url: (key: string) => storage.url(key),
      keyOf: (url: string | null | undefined) => storage.keyOf(url),
      open: (key: string) => storage.open(key),
      exists: (key: string) => storage.exists(key),
    }
  }
}
