import { sql } from 'drizzle-orm'
import { uuidv7 } from '../db/ids'
import { selectRows, type SqlExecutor } from '../db/rows'

// SQL of the durable job queue (schema-jobs.ts). Every time comes from the caller's clock, so tests that move time
// make retries and scheduled jobs due without waiting.

export interface ClaimedJob {
  id: string
  kind: string
  payload: unknown
  /** Counting this run. */
  attempts: number
  maxAttempts: number
}

export interface NewJob {
  kind: string
  payload: unknown
  runAt: Date
  key: string | null
  maxAttempts: number
}

/** Inserts a job; with a key already held by an unfinished job, inserts nothing and answers false. */
export async function insertJob(db: SqlExecutor, job: NewJob): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`insert into jobs (id, kind, payload, key, run_at, max_attempts)
        values (${uuidv7()}, ${job.kind}, ${JSON.stringify(job.payload)}::jsonb, ${job.key}, ${job.runAt.toISOString()}::timestamptz,
                ${job.maxAttempts})
        on conflict (key) do nothing
        returning id`,
  )
  return rows.length === 1
}

/**
 * Takes the next due job of the given kinds and leases it until `leaseUntil`, in one statement: SKIP LOCKED lets
 * several processes claim at once without waiting on each other, and the lease (not a held transaction) marks it
 * taken, so a long job holds no connection.
 */
export async function claimDueJob(db: SqlExecutor, kinds: string[], now: Date, leaseUntil: Date): Promise<ClaimedJob | null> {
  if (kinds.length === 0) return null
  const rows = await selectRows<{ id: string; kind: string; payload: unknown; attempts: number; max_attempts: number }>(
    db,
    sql`update jobs set attempts = attempts + 1, locked_until = ${leaseUntil.toISOString()}::timestamptz
        where id = (
          select id from jobs
          where failed_at is null and run_at <= ${now.toISOString()}::timestamptz
            and (locked_until is null or locked_until <= ${now.toISOString()}::timestamptz)
            and kind in (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)})
          order by run_at
          limit 1
          for update skip locked)
        returning id, kind, payload, attempts, max_attempts`,
  )
  const row = rows[0]
  if (!row) return null
  return { id: row.id, kind: row.kind, payload: row.payload, attempts: row.attempts, maxAttempts: row.max_attempts }
}

/** Done: the row goes. Only while this run still holds the lease it was given (a rerun elsewhere owns it after). */
export async function deleteJob(db: SqlExecutor, id: string): Promise<void> {
  await db.execute(sql`delete from jobs where id = ${id}`)
}

/** Failed this time: due again at `retryAt`, or kept as failed when `retryAt` is null. */
export async function failJob(db: SqlExecutor, id: string, error: string, now: Date, retryAt: Date | null): Promise<void> {
  await db.execute(
    retryAt
      ? sql`update jobs set locked_until = null, run_at = ${retryAt.toISOString()}::timestamptz, last_error = ${error}
            where id = ${id}`
      : // The key goes with the last failure, so the member can ask again (another export), and so does the payload,
        // which may carry a secret link (a password reset mail): the row keeps the kind and the error for the operator.
        sql`update jobs set locked_until = null, failed_at = ${now.toISOString()}::timestamptz, last_error = ${error},
                key = null, payload = '{}'::jsonb
            where id = ${id}`,
  )
}

/** A long job pushes its lease on while it makes progress. */
export async function extendLease(db: SqlExecutor, id: string, leaseUntil: Date): Promise<void> {
  await db.execute(sql`update jobs set locked_until = ${leaseUntil.toISOString()}::timestamptz where id = ${id}`)
}

/** Jobs not finished yet (due, waiting or running), by kind; failed ones apart. For tests and metrics. */
export async function countJobs(db: SqlExecutor): Promise<{ kind: string; pending: number; failed: number }[]> {
  return selectRows(
    db,
    sql`select kind, (count(*) filter (where failed_at is null))::int as pending,
               (count(*) filter (where failed_at is not null))::int as failed
        from jobs group by kind order by kind`,
  )
}

export type JobState = 'due' | 'scheduled' | 'running' | 'failed'

/**
 * How many jobs are in each state at `now`, each count stopping at `cap`: a metrics scrape reads this every few
 * seconds, so however large a backlog grows it reads at most `cap` rows per state (a count at the cap means "at
 * least"). Due and scheduled jobs are found through the partial index on unfinished jobs' run_at.
 */
export async function countJobStates(db: SqlExecutor, now: Date, cap: number): Promise<Record<JobState, number>> {
  const at = sql`${now.toISOString()}::timestamptz`
  const capped = (where: ReturnType<typeof sql>) => sql`(select count(*)::int from (select 1 from jobs where ${where} limit ${cap}) c)`
  const [row] = await selectRows<Record<JobState, number>>(
    db,
    sql`select
          ${capped(sql`failed_at is null and run_at <= ${at} and (locked_until is null or locked_until <= ${at})`)} as due,
          ${capped(sql`failed_at is null and run_at > ${at} and (locked_until is null or locked_until <= ${at})`)} as scheduled,
          ${capped(sql`failed_at is null and locked_until > ${at}`)} as running,
          ${capped(sql`failed_at is not null`)} as failed`,
  )
  return row ?? { due: 0, scheduled: 0, running: 0, failed: 0 }
}
