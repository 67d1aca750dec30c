import type { Database } from '../../db/client'
import { type SessionTouch, touchSessions } from './queries'

/**
 * How long a far-from-limit touch may wait to be written. A session's last use is recorded to the minute and, this
 * far from its idle limit, a reader of the previous time still finds it alive for half a limit, so a second changes
 * nothing anyone can see; it turns one write (and one commit, one WAL flush) per member per minute into one a second.
 */
export const TOUCH_BATCH_MS = 1_000

/**
 * Sessions' last-use writes, gathered and written together. Measured on the messaging bench: members who send a
 * message about once a minute each made every send pay a second commit beside its own, and at 200 sends a second
 * those commits were the tail of the sends' latency (bench/README.md, messaging).
 */
export class SessionTouches {
  private pending = new Map<string, SessionTouch>()
  private timer: NodeJS.Timeout | undefined
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private readonly db: Database,
    private readonly warn: (message: string, err: unknown) => void,
    private readonly delayMs = TOUCH_BATCH_MS,
  ) {}

  /** Records a use to be written within `delayMs`; a later use of the same session replaces an earlier one. */
  add(touch: SessionTouch): void {
    const earlier = this.pending.get(touch.sessionId)
    // The oldest condition is kept: the write must still happen if either use alone would have written.
    this.pending.set(touch.sessionId, earlier ? { ...touch, staleBefore: maxDate(earlier.staleBefore, touch.staleBefore) } : touch)
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.delayMs)
      this.timer.unref()
    }
  }

  /** Writes everything recorded so far; resolves once written (or failed and logged). Never throws. */
  flush(): Promise<void> {
    clearTimeout(this.timer)
    this.timer = undefined
    const batch = [...this.pending.values()]
    this.pending = new Map()
    // One write at a time: a flush queued behind a slow one never overtakes it with older times.
    const run = this.writing.then(() =>
      touchSessions(this.db, batch).catch((err: unknown) => this.warn('could not record when sessions were last used', err)),
    )
    this.writing = run
    return run
  }
}

const maxDate = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b)
