import type { Database } from '../../db/client'
import type { JobQueue } from '../../jobs/queue'
import type { Clock } from '../../lib/clock'
import { Conflict, Unprocessable } from '../../lib/domain-errors'
import { IDEMPOTENCY_KEY_IN_PROGRESS as KEY_IN_PROGRESS, IDEMPOTENCY_KEY_REUSED as KEY_REUSED } from '../../../src/api/contract/idempotency'
import { claimKey, completeKey, deleteForgottenKeys, findKey, releaseKey } from './queries'

// The product's words (docs/architecture.md, "Idempotent writes"), shared with the SPA.
export { KEY_IN_PROGRESS, KEY_REUSED }

/** How long a key answers with its first result; after that it is forgotten and may be used again. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60_000
/**
 * A claim still in flight this long belongs to a process that died mid-request (no write here runs for minutes:
 * uploads are bounded and remuxed, not transcoded). A retry may then take the key over.
 */
export const IDEMPOTENCY_CLAIM_ABANDONED_MS = 5 * 60_000
export const SWEEP_JOB = 'idempotency.sweep'
/** Sweep jobs are grouped by the hour their keys expire in: at most about 25 wait at once, whatever the traffic. */
const SWEEP_GRANULE_MS = 60 * 60_000
const SWEEP_BATCH = 1_000
/** Claim, find the holder, claim again: the holder may be released or expire between two statements, but not forever. */
const CLAIM_ATTEMPTS = 3

/** What a write answered: kept with the key and given again to a retry. */
export interface WriteAnswer {
  status: number
  body?: unknown
}

export interface IdempotentRequest {
  userId: string
  /** The member's Idempotency-Key. */
  key: string
  /** The operationId: the same key used for another operation is another request. */
  operation: string
  /** SHA-256 of the operation and what the request sends (server/http/idempotency.ts). */
  fingerprint: string
}

export interface IdempotencyDeps {
  db: Database
  clock: Clock
  jobs: JobQueue
  warn: (message: string, err: unknown) => void
}

/**
 * Idempotent writes (the IETF httpapi Idempotency-Key draft, as Stripe runs it). The key is claimed before the write
 * with an in-flight row unique per member and key, so of two identical requests arriving together on any processes
 * exactly one writes; the other is told the first is in progress (409). The write's 2xx answer is then kept with the
 * key for 24 hours and a retry receives it instead of writing again. A failed write (an error, any 4xx or 5xx) frees
 * the key so the retry can succeed. A process that dies mid-request leaves the key in flight: retries are refused
 * with 409 for IDEMPOTENCY_CLAIM_ABANDONED_MS, then the next one writes. Dying before the write committed is by far
 * the likelier case (the commit and keeping the answer are moments apart), and refusing for a day would lose that
 * post; the rarer case, dying between the two, can then post twice.
 */
export class IdempotencyService {
  constructor(private readonly deps: IdempotencyDeps) {
    deps.jobs.register<Record<string, never>>(SWEEP_JOB, { run: async () => void (await this.sweep()) })
  }

  /** Runs `write` once per member and key: a retry gets the kept answer, a different request 422, a concurrent one 409. */
  async run(request: IdempotentRequest, write: () => Promise<WriteAnswer>): Promise<WriteAnswer> {
    const kept = await this.claim(request)
    if (kept) return kept
    let answer: WriteAnswer
    try {
      answer = await write()
    } catch (err) {
      await releaseKey(this.deps.db, request).catch((releaseErr: unknown) =>
        this.deps.warn('could not free an idempotency key after a failed write', releaseErr),
      )
      throw err
    }
    // The write is done: a failure to keep its answer must not turn it into an error the client would retry with a
    // new key. The key stays in flight (409 to retries) until it counts as abandoned.
    await completeKey(this.deps.db, request, answer).catch((err: unknown) =>
      this.deps.warn('could not keep the answer of an idempotent write', err),
    )
    // Only a kept answer schedules its sweep: a refused request leaves nothing behind, not even a job.
    await this.scheduleSweep(this.deps.clock.now())
    return answer
  }

  /** Deletes every forgotten key (the sweep job; tests call it after moving the clock). Answers how many went. */
  async sweep(): Promise<number> {
    const forgottenBefore = new Date(this.deps.clock.now() - IDEMPOTENCY_KEY_TTL_MS)
    let total = 0
    for (;;) {
      const deleted = await deleteForgottenKeys(this.deps.db, forgottenBefore, SWEEP_BATCH)
      total += deleted
      if (deleted < SWEEP_BATCH) return total
    }
  }

  /** Undefined once this request holds the key; the kept answer when an earlier identical request completed. */
  private async claim(request: IdempotentRequest): Promise<WriteAnswer | undefined> {
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const now = this.deps.clock.now()
      const forgottenBefore = new Date(now - IDEMPOTENCY_KEY_TTL_MS)
      const abandonedBefore = new Date(now - IDEMPOTENCY_CLAIM_ABANDONED_MS)
      if (await claimKey(this.deps.db, { ...request, now: new Date(now), forgottenBefore, abandonedBefore })) return undefined
      const held = await findKey(this.deps.db, request.userId, request.key)
      // Freed (its write failed), forgotten or abandoned since the claim: claim again.
      if (!held || held.createdAt < forgottenBefore || (held.status === null && held.createdAt < abandonedBefore)) continue
      if (held.operation !== request.operation || held.fingerprint !== request.fingerprint) throw new Unprocessable(KEY_REUSED)
      if (held.status === null) throw new Conflict(KEY_IN_PROGRESS)
      return { status: held.status, body: held.body ?? undefined }
    }
    // Freed and taken again by another request each time: it is that request's key now.
    throw new Conflict(KEY_IN_PROGRESS)
  }

  /** One sweep job per hour of expiry, so every key is deleted within an hour of being forgotten. */
  private async scheduleSweep(now: number): Promise<void> {
    const due = Math.ceil((now + IDEMPOTENCY_KEY_TTL_MS) / SWEEP_GRANULE_MS) * SWEEP_GRANULE_MS
    await this.deps.jobs
      .enqueue(SWEEP_JOB, {}, { runAt: new Date(due), key: `${SWEEP_JOB}:${new Date(due).toISOString()}` })
      .catch((err: unknown) => this.deps.warn('could not schedule the idempotency key sweep', err))
  }
}
