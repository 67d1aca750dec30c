import type { PGlite } from '@electric-sql/pglite'
import type pg from 'pg'

/** Seconds one statement took, from the moment the driver sent it to the moment its answer was complete. */
export type StatementListener = (seconds: number) => void

/** A pg pool's connections right now (PGlite is one in-process connection and has none). */
export interface PoolStats {
  /** Connections open (in use plus idle). */
  total: number
  idle: number
  /** Checkouts waiting for a free connection. */
  waiting: number
}

/**
 * Where a database handle reports statement times. The handle can outlive an app and be shared by several (the tests
 * build many apps on one database), so apps subscribe and unsubscribe instead of the driver knowing about any of
 * them. With no listener a statement costs one Set size check.
 */
export class StatementTiming {
  private readonly listeners = new Set<StatementListener>()

  /** Calls `listener` after every statement until the returned function is called. */
  observe(listener: StatementListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private report(startedAt: number): void {
    const seconds = (performance.now() - startedAt) / 1000
    for (const listener of this.listeners) listener(seconds)
  }

  /**
   * Times every statement of a pg connection. Wrapped per connection (the pool's 'connect' event), because a pooled
   * `pool.query` and a transaction's statements both end in `client.query`; the time waiting for a free connection
   * is not a statement's and is left out (`PoolStats.waiting` shows that queue).
   */
  timePgClient(client: pg.PoolClient): void {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown
    const timed = (...args: unknown[]): unknown => {
      if (this.listeners.size === 0) return query(...args)
      const startedAt = performance.now()
      const last = args.length - 1
      const callback = args[last]
      // pg-pool's own `pool.query` passes a callback.
      if (typeof callback === 'function') {
        args[last] = (...results: unknown[]) => {
          this.report(startedAt)
          return (callback as (...a: unknown[]) => unknown)(...results)
        }
        return query(...args)
      }
      const result = query(...args)
      // A promise (drizzle's calls); a Submittable (cursors) has no end to time here and is passed on as it is.
      if (result instanceof Promise) {
        result.then(
          () => this.report(startedAt),
          () => this.report(startedAt),
        )
      }
      return result
    }
    ;(client as unknown as { query: typeof timed }).query = timed
  }

  /**
   * Times every statement of a PGlite. Its `query`, `exec` and a transaction's statements each run inside one turn of
   * `_runExclusiveQuery` (PGlite's lock on its single connection): timed inside the turn, so a statement's time is
   * its own and not the wait behind others.
   */
  timePglite(client: PGlite): void {
    const runExclusive = client._runExclusiveQuery.bind(client)
    client._runExclusiveQuery = <T>(fn: () => Promise<T>): Promise<T> => {
      if (this.listeners.size === 0) return runExclusive(fn)
      return runExclusive(async () => {
        const startedAt = performance.now()
        try {
          return await fn()
        } finally {
          this.report(startedAt)
        }
      })
    }
  }
}
