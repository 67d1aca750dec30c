// Which members are signed in in the other tabs of this browser. A session without "Remember me" lives in one tab
// (sessionStorage), but the unwrapped message key lives in IndexedDB, which every tab shares: a new tab starting
// signed out, or one tab signing out, must not remove the key another tab still signed in as that member needs after
// a reload. Each signed-in tab holds a shared Web Lock named for its member while it is signed in; a tab about to
// forget keys lets go of its own, then asks which are still held. A browser without Web Locks cannot tell, and
// forgets every key as before.

export interface TabPresence {
  /** This tab is signed in as `userId` (until `leave`); entering as another member leaves the first. */
  enter(userId: string): void
  /** This tab is signed out; resolves once the other tabs no longer see it. */
  leave(): Promise<void>
  /** The members signed in in other tabs (an empty set when the browser cannot tell). */
  elsewhere(): Promise<ReadonlySet<string>>
}

const PREFIX = 'wren-signed-in:'

interface Held {
  userId: string
  release: () => void
  released: Promise<unknown>
}

/** Over `navigator.locks`; nobody elsewhere where the browser has none (Node, old browsers). */
export function webLockPresence(locks: LockManager | undefined = globalThis.navigator?.locks): TabPresence {
  let held: Held | null = null
  const leave = async () => {
    const current = held
    held = null
    if (!current) return
    current.release()
    await current.released
  }
  return {
    enter(userId) {
      if (!locks || held?.userId === userId) return
      void leave()
      let release = () => {}
      const holding = new Promise<void>((resolve) => {
        release = resolve
      })
      const released = locks.request(`${PREFIX}${userId}`, { mode: 'shared' }, () => holding).catch(() => undefined)
      held = { userId, release, released }
    },
    leave,
    async elsewhere() {
      if (!locks) return new Set()
      const { held: all = [] } = await locks.query()
      return new Set(all.flatMap((lock) => (lock.name?.startsWith(PREFIX) ? [lock.name.slice(PREFIX.length)] : [])))
    },
  }
}

/** For tests: the other tabs are whoever the test says. */
export function memoryPresence(others: Iterable<string> = []): TabPresence & { here: string | null; others: Set<string> } {
  const presence = {
    here: null as string | null,
    others: new Set(others),
    enter(userId: string) {
      presence.here = userId
    },
    leave() {
      presence.here = null
      return Promise.resolve()
    },
    elsewhere() {
      return Promise.resolve(new Set(presence.others) as ReadonlySet<string>)
    },
  }
  return presence
}
