import type { SqlExecutor } from '../../db/rows'
import { addViews } from './queries'

export const VIEW_FLUSH_INTERVAL_MS = 10_000

/**
 * View counts, batched in memory and written every ten seconds in one UPDATE, so showing a post never waits on
 * (or contends for) a write of its row. A view is a post shown to someone other than its author. Counts are
 * approximate by nature: a crash loses at most one interval, and app shutdown flushes what is pending. Ten seconds,
 * not two: a post is a wide row (its search vector is computed again on every update), and most posts viewed are
 * viewed again within the interval, so a longer one writes far fewer rows per view (docs/posts-and-feed.md).
 */
export class ViewCounter {
  private pending = new Map<string, number>()
  private readonly timer: NodeJS.Timeout
  private flushing: Promise<void> = Promise.resolve()
  private closed = false

  constructor(
    private readonly db: SqlExecutor,
    private readonly onError: (err: unknown) => void = () => undefined,
    intervalMs: number = VIEW_FLUSH_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs)
    this.timer.unref()
  }

  /** Counts one view of each post the viewer did not write. */
  record(viewerId: string, shown: Iterable<{ id: string; authorId: string }>): void {
    if (this.closed) return
    for (const post of shown) {
      if (post.authorId !== viewerId) this.pending.set(post.id, (this.pending.get(post.id) ?? 0) + 1)
    }
  }

  /** Writes what is pending; flushes never overlap (a slow one delays the next instead of racing it). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return
      const batch = this.pending
      this.pending = new Map()
      try {
        await addViews(this.db, batch)
      } catch (err) {
        this.onError(err)
      }
    })
    return this.flushing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    this.closed = true
    await this.flush()
  }
}
