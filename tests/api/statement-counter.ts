import type { Database } from '../../server/db/client'

interface Logger {
  logQuery: (query: string, params: unknown[]) => void
}

export interface StatementCounter {
  /** The text of every statement sent since the counter started, in order. */
  readonly statements: string[]
  stop: () => void
}

/**
 * Records every statement drizzle sends through `db` until stopped (drizzle's session logger, swapped in: every
 * query, prepared or not, is logged by the prepared query its session makes). Statements of other requests running
 * at the same time are counted too: use it around requests made one at a time.
 */
export function countStatements(db: Database): StatementCounter {
  const session = db._.session as unknown as { logger: Logger }
  const previous = session.logger
  const statements: string[] = []
  session.logger = {
    logQuery: (query, params) => {
      statements.push(query)
      previous.logQuery(query, params)
    },
  }
  return { statements, stop: () => (session.logger = previous) }
}
