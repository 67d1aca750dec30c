import type { Database } from '../db/client'
import type { SqlExecutor } from '../db/rows'
import type { Clock } from '../lib/clock'
import { type ClaimedJob, claimDueJob, countJobStates, countJobs, deleteJob, extendLease, failJob, insertJob, type JobState } from './queries'

/**
 * The one durable job queue: mail, account deletion, exports, link previews. Jobs are rows (migration 0024), so
 * they survive restarts; each due job is claimed by one process (FOR UPDATE SKIP LOCKED) and leased, so across
 * processes it runs once while that process lives. A process that dies mid-job loses the lease and the job runs
 * again: a handler must be safe to rerun (delete what is already gone, overwrite what is half written).
 *
 * Each process polls every `pollMs` for jobs others enqueued or retries that came due, and wakes at once for a job
 * it enqueued itself. A failed run is retried with exponential backoff (5 s, 10 s, 20 s, ... at most an hour) up to
 * the kind's `maxAttempts`; after that the row stays with `failed_at` and `onGiveUp` runs.
 */

export interface JobContext<P> {
  id: string
  payload: P
  /** 1 on the first run. */
  attempt: number
  /** Pushes the lease on by another lease length: call it between pages of a long job. */
  extendLease: () => Promise<void>
}

export interface JobKind<P> {
  run: (job: JobContext<P>) => Promise<void>
  /** Runs (without throwing) once the last attempt failed: tell the member, clean up. */
  onGiveUp?: (job: JobContext<P>, error: unknown) => Promise<void>
  /** Default 8. */
  maxAttempts?: number
  /** How long a claim holds before another process may take the job again. Default 5 minutes. */
  leaseMs?: number
}

export interface EnqueueOptions {
  /** Not before (default: now). */
  runAt?: Date
  /** Written in this transaction, so the job exists exactly when what caused it committed. */
  tx?: SqlExecutor
  /** At most one unfinished job per key: a second enqueue with the key answers false and adds nothing. */
  key?: string
}

export interface JobQueueOptions {
  db: Database
  clock: Clock
  warn: (message: string, err: unknown) => void
  /** How often a process looks for due jobs it did not enqueue itself. */
  pollMs?: number
  /** Jobs this process runs at once. */
  concurrency?: number
}

export const JOB_POLL_MS = 1_000
const DEFAULT_LEASE_MS = 5 * 60_000
const BACKOFF_BASE_MS = 5_000
const BACKOFF_MAX_MS = 60 * 60_000

/** 5 s after the first failure, doubling, at most an hour, with up to 20 % jitter so retries do not arrive together. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1))
  return Math.round(base * (1 + 0.2 * random()))
}

export class JobQueue {
  private readonly kinds = new Map<string, JobKind<never>>()
  private readonly running = new Set<Promise<void>>()
  /** The poll's claims on their way to the database. */
  private readonly claims = new Set<Promise<unknown>>()
  private timer: NodeJS.Timeout | undefined
  private started = false
  private closed = false
  private pumping = false
  private pumpAgain = false
  private readonly pollMs: number
  private readonly concurrency: number

  constructor(private readonly options: JobQueueOptions) {
    this.pollMs = options.pollMs ?? JOB_POLL_MS
    this.concurrency = options.concurrency ?? 2
  }

  /** Declares what a kind of job does. Once per kind, before `start`. */
  register<P>(kind: string, handler: JobKind<P>): void {
    if (this.kinds.has(kind)) throw new Error(`Job kind "${kind}" is registered twice`)
    this.kinds.set(kind, handler as JobKind<never>)
  }

  /** Adds a job. Answers false when `key` is held by an unfinished job (nothing added). */
  async enqueue<P>(kind: string, payload: P, options: EnqueueOptions = {}): Promise<boolean> {
    const handler = this.kinds.get(kind)
    if (!handler) throw new Error(`Job kind "${kind}" is not registered`)
    const added = await insertJob(options.tx ?? this.options.db, {
      kind,
      payload,
      runAt: options.runAt ?? new Date(this.options.clock.now()),
      key: options.key ?? null,
      maxAttempts: handler.maxAttempts ?? 8,
    })
    // Inside a transaction the row is not visible until it commits: the poll finds it then.
    if (added && !options.tx) this.wake()
    return added
  }

  /** Starts polling (the app does, once ready). */
  start(): void {
    if (this.started || this.closed) return
    this.started = true
    this.timer = setInterval(() => this.wake(), this.pollMs)
    this.timer.unref()
    this.wake()
  }

  /** Stops claiming and waits for the jobs this process is running. */
  async close(): Promise<void> {
    this.closed = true
    clearInterval(this.timer)
    this.timer = undefined
    while (this.running.size > 0) await Promise.allSettled([...this.running])
  }

  /**
   * Runs every job that is due now (by the clock), including retries that come due while it runs, and waits for
   * them, jobs already running in this process included: tests call it instead of waiting for the poll.
   */
  async drain(): Promise<void> {
    for (;;) {
      const job = await this.claim()
      if (job) {
        await this.track(job)
        continue
      }
      // Nothing due for this call: what the poll has claimed or is claiming still has to finish.
      if (this.running.size === 0 && this.claims.size === 0) return
      await Promise.allSettled([...this.running, ...this.claims])
    }
  }

  /** Unfinished and failed jobs by kind. */
  counts(): Promise<{ kind: string; pending: number; failed: number }[]> {
    return countJobs(this.options.db)
  }

  /** Jobs by state now, each count capped at `cap` (the metrics scrape's bounded read). */
  depth(cap: number): Promise<Record<JobState, number>> {
    return countJobStates(this.options.db, new Date(this.options.clock.now()), cap)
  }

  private wake(): void {
    if (!this.started || this.closed) return
    if (this.pumping) {
      this.pumpAgain = true
      return
    }
    this.pumping = true
    void this.pump().finally(() => {
      this.pumping = false
      if (this.pumpAgain) {
        this.pumpAgain = false
        this.wake()
      }
    })
  }

  /** Fills the free slots with due jobs; each finished job wakes the pump again for the next. */
  private async pump(): Promise<void> {
    try {
      while (!this.closed && this.running.size < this.concurrency) {
        // The job is tracked the moment its claim answers, before the claim stops counting as pending: `drain`
        // never sees a job that is claimed but not yet running.
        const claim = this.claim().then((job) => {
          if (job) void this.track(job).finally(() => this.wake())
          return job
        })
        this.claims.add(claim)
        const job = await claim.finally(() => this.claims.delete(claim))
        if (!job) return
      }
    } catch (err) {
      // The database is away: the next poll tries again.
      this.options.warn('could not claim a background job', err)
    }
  }

  private claim(): Promise<ClaimedJob | null> {
    const now = this.options.clock.now()
    // The longest lease of any kind: a claim does not know its kind before it is made.
    const lease = Math.max(DEFAULT_LEASE_MS, ...[...this.kinds.values()].map((k) => k.leaseMs ?? 0))
    return claimDueJob(this.options.db, [...this.kinds.keys()], new Date(now), new Date(now + lease))
  }

  private track(job: ClaimedJob): Promise<void> {
    const run = this.run(job)
    this.running.add(run)
    return run.finally(() => this.running.delete(run))
  }

  private async run(job: ClaimedJob): Promise<void> {
    const handler = this.kinds.get(job.kind)
    if (!handler) return
    const leaseMs = handler.leaseMs ?? DEFAULT_LEASE_MS
    const context: JobContext<never> = {
      id: job.id,
      payload: job.payload as never,
      attempt: job.attempts,
      extendLease: () => extendLease(this.options.db, job.id, new Date(this.options.clock.now() + leaseMs)),
    }
    try {
      await handler.run(context)
      await deleteJob(this.options.db, job.id)
    } catch (err) {
      const now = this.options.clock.now()
      const last = job.attempts >= job.maxAttempts
      const message = err instanceof Error ? err.message : String(err)
      try {
        await failJob(this.options.db, job.id, message.slice(0, 1000), new Date(now), last ? null : new Date(now + retryDelayMs(job.attempts)))
      } catch (recordErr) {
        // Not recorded: the lease runs out and the job is claimed again.
        this.options.warn(`could not record a failed "${job.kind}" job`, recordErr)
      }
      if (last) {
        this.options.warn(`background job "${job.kind}" failed ${job.attempts} times; giving up`, err)
        await handler.onGiveUp?.(context, err).catch((giveUpErr) => this.options.warn(`"${job.kind}" give-up failed`, giveUpErr))
      }
    }
  }
}
