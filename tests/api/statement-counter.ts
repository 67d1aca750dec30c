import type { Database } from '../../server/db/client'
import { currentRequestId } from '../../server/logging/request-context'

interface Logger {
  logQuery: (query: string, params: unknown[]) => void
}

export interface StatementCounter {
  /** The text of every statement sent since the counter started, in order. */
  readonly statements: string[]
  /** The statements sent while handling the request with this id (its `X-Request-Id`): not those of work an earlier
   * request left running (a push timer, a job it woke). */
  of: (requestId: string) => string[]
  stop: () => void
}

/**
 * The job queue's poll (server/jobs/queue.ts) asks for due jobs every second, whatever requests run: not a statement
 * of the request being counted.
 */
const isJobPoll = (query: string) => /^\s*update jobs set attempts = attempts \+ 1/.test(query)

/**
 * Records every statement drizzle sends through `db` until stopped, transactions' included (drizzle's session logger,
 * swapped in on the session and in the options a transaction's session is made from: every query, prepared or not,
 * is logged by the prepared query its session makes), except the job queue's poll. Statements of other requests
 * running at the same time are counted too: use it around requests made one at a time, or filter with `of`.
 */
export function countStatements(db: Database): StatementCounter {
  const session = db._.session as unknown as { logger: Logger; options?: { logger?: Logger } }
  const previous = session.logger
  const options = session.options
  const previousOption = options?.logger
  const statements: string[] = []
  const requests: Array<string | undefined> = []
  const counting: Logger = {
    logQuery: (query, params) => {
      if (!isJobPoll(query)) {
        statements.push(query)
        requests.push(currentRequestId())
      }
      previous.logQuery(query, params)
    },
  }
  session.logger = counting
  if (options) options.logger = counting
  return {
    statements,
    of: (requestId) => statements.filter((_, i) => requests[i] === requestId),
    stop: () => {
      session.logger = previous
      if (options) options.logger = previousOption
    },
  }
}
