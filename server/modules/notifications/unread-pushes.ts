/** How long announcements for one member are gathered into one push of their unread count. */
export const UNREAD_PUSH_COALESCE_MS = 50

export interface UnreadPushDeps {
  /** The member's unread count now (one statement). */
  count: (memberId: string) => Promise<number>
  /** Sends it to the member's sockets (a hint: the app reads the list over HTTP). */
  push: (memberId: string, unreadCount: number) => void
  warn: (message: string, err: unknown) => void
  delayMs?: number
}

/**
 * Pushes members' unread counts after their notifications change, at most once per member per
 * UNREAD_PUSH_COALESCE_MS, counted when the push goes out. A post liked 300 times a second used to cost its author
 * 300 count statements, each one awaited by the like that caused it; now the likes answer without it and the author
 * gets up to 20 pushes a second, each with the latest count. The count is read after every change it covers has
 * committed (announcements are made after commit), so the last push a member gets is always right.
 */
export class UnreadPushes {
  private readonly pending = new Set<string>()
  private timer: NodeJS.Timeout | undefined
  private flushing: Promise<void> = Promise.resolve()

  constructor(private readonly deps: UnreadPushDeps) {}

  schedule(memberIds: readonly string[]): void {
    for (const id of memberIds) this.pending.add(id)
    if (this.timer || this.pending.size === 0) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.flushing = this.flushing.then(() => this.flush())
    }, this.deps.delayMs ?? UNREAD_PUSH_COALESCE_MS)
  }

  private async flush(): Promise<void> {
    const ids = [...this.pending]
    this.pending.clear()
    for (const id of ids) {
      try {
        this.deps.push(id, await this.deps.count(id))
      } catch (err) {
        this.deps.warn('could not push an unread count', err)
      }
    }
  }

  /** Sends what is pending now (on shutdown, before the database closes). */
  async close(): Promise<void> {
    clearTimeout(this.timer)
    this.timer = undefined
    this.flushing = this.flushing.then(() => this.flush())
    await this.flushing
  }
}
