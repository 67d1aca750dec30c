import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { selectRows } from '../../server/db/rows'
import { JobQueue, retryDelayMs } from '../../server/jobs/queue'
import { openTestDatabase, type TestDatabase } from './harness'

/**
 * The durable job queue on the file's database (PGlite, or PostgreSQL with DATABASE_URL): jobs survive a new queue
 * (a restart), run once across queues (processes), retry with backoff and give up after their attempts. Time is the
 * queue's clock, moved by the test.
 */

let database: TestDatabase
let now = Date.UTC(2026, 10, 27, 12)
const clock = { now: () => now }
const warnings: string[] = []
const queue = (concurrency = 2) =>
  new JobQueue({ db: database.handle.db, clock, warn: (message) => warnings.push(message), concurrency, pollMs: 50 })

beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

const jobRows = () =>
  selectRows<{ kind: string; attempts: number; failed_at: unknown; last_error: string | null; payload: unknown; key: string | null }>(
    database.handle.db,
    sql`select kind, attempts, failed_at, last_error, payload, key from jobs order by created_at`,
  )

describe('job queue', () => {
  it('drain waits for the jobs the poll is claiming at that moment, not only the ones it runs', async () => {
    const q = queue()
    let ran = 0
    q.register('now', { run: async () => void (ran += 1) })
    q.start()
    for (let i = 0; i < 20; i++) {
      // The enqueue wakes the poll, whose claim is on its way when drain asks for due jobs itself.
      await q.enqueue('now', {})
      await q.drain()
      expect(ran).toBe(i + 1)
    }
    await q.close()
  })

  it('keeps a job across a restart: a queue that never ran it leaves it for the next', async () => {
    const first = queue()
    first.register('greet', { run: async () => undefined })
    await first.enqueue('greet', { to: 'ann' })
    await first.close()
    expect((await jobRows()).map((r) => r.kind)).toEqual(['greet'])

    const ran: unknown[] = []
    const second = queue()
    second.register('greet', { run: async ({ payload }) => void ran.push(payload) })
    await second.drain()
    expect(ran).toEqual([{ to: 'ann' }])
    expect(await jobRows()).toEqual([])
  })

  it('runs each job once when several processes poll at the same time', async () => {
    const runs = new Map<number, number>()
    const queues = [queue(3), queue(3), queue(3)]
    for (const q of queues) {
      q.register('count', {
        run: async ({ payload }) => {
          const n = (payload as { n: number }).n
          runs.set(n, (runs.get(n) ?? 0) + 1)
          await new Promise((resolve) => setTimeout(resolve, 2))
        },
      })
    }
    for (let n = 0; n < 60; n++) await queues[0]?.enqueue('count', { n })
    for (const q of queues) q.start()
    await Promise.all(queues.map((q) => q.drain()))
    await Promise.all(queues.map((q) => q.close()))
    expect(runs.size).toBe(60)
    expect([...runs.values()].every((count) => count === 1)).toBe(true)
    expect(await jobRows()).toEqual([])
  })

  it('retries a failed job after its backoff, and not before', async () => {
    const q = queue()
    let calls = 0
    q.register('flaky', {
      run: async () => {
        calls += 1
        if (calls === 1) throw new Error('mail server away')
      },
    })
    await q.enqueue('flaky', {})
    await q.drain()
    expect(calls).toBe(1)
    const [row] = await jobRows()
    expect(row).toMatchObject({ attempts: 1, last_error: 'mail server away', failed_at: null })

    now += 4_000 // the first retry waits at least 5 s
    await q.drain()
    expect(calls).toBe(1)
    now += retryDelayMs(1, () => 1)
    await q.drain()
    expect(calls).toBe(2)
    expect(await jobRows()).toEqual([])
  })

  it('gives up after the last attempt: keeps the row as failed, without its payload, and tells the kind once', async () => {
    const q = queue()
    const gaveUp: unknown[] = []
    q.register('doomed', {
      maxAttempts: 3,
      run: async () => {
        throw new Error('no such mailbox')
      },
      onGiveUp: async ({ payload }) => void gaveUp.push(payload),
    })
    await q.enqueue('doomed', { secretLink: 'https://x/reset?token=abc' }, { key: 'doomed:1' })
    for (let i = 0; i < 5; i++) {
      await q.drain()
      now += 3_600_000
    }
    expect(gaveUp).toEqual([{ secretLink: 'https://x/reset?token=abc' }])
    const [row] = await jobRows()
    expect(row).toMatchObject({ kind: 'doomed', attempts: 3, last_error: 'no such mailbox', payload: {}, key: null })
    expect(row?.failed_at).not.toBeNull()
    // Its key is free again: the member can ask once more.
    expect(await q.enqueue('doomed', {}, { key: 'doomed:1' })).toBe(true)
    await database.handle.db.execute(sql`delete from jobs`)
  })

  it('holds one unfinished job per key', async () => {
    const q = queue()
    q.register('export', { run: async () => undefined })
    expect(await q.enqueue('export', { user: 1 }, { key: 'export:1' })).toBe(true)
    expect(await q.enqueue('export', { user: 1 }, { key: 'export:1' })).toBe(false)
    expect(await q.enqueue('export', { user: 2 }, { key: 'export:2' })).toBe(true)
    expect((await q.counts()).find((c) => c.kind === 'export')).toEqual({ kind: 'export', pending: 2, failed: 0 })
    await q.drain()
    expect(await q.enqueue('export', { user: 1 }, { key: 'export:1' })).toBe(true)
    await q.drain()
  })

  it('does not run a job before its time, and runs it once that time comes', async () => {
    const q = queue()
    const ran: string[] = []
    q.register('later', { run: async () => void ran.push('later') })
    await q.enqueue('later', {}, { runAt: new Date(now + 60_000) })
    await q.drain()
    expect(ran).toEqual([])
    now += 60_000
    await q.drain()
    expect(ran).toEqual(['later'])
  })

  it('runs a job again elsewhere when the process that claimed it died (its lease ran out)', async () => {
    const dead = queue()
    let started: () => void = () => undefined
    const claimed = new Promise<void>((resolve) => (started = resolve))
    dead.register('long', { leaseMs: 60_000, run: () => (started(), new Promise(() => undefined)) })
    await dead.enqueue('long', {})
    void dead.drain()
    await claimed

    const ran: number[] = []
    const alive = queue()
    alive.register('long', { leaseMs: 60_000, run: async ({ attempt }) => void ran.push(attempt) })
    await alive.drain()
    expect(ran).toEqual([]) // still leased
    now += 5 * 60_000 + 1
    await alive.drain()
    expect(ran).toEqual([2])
  })

  it('writes a job inside the caller\'s transaction: it exists only if the transaction commits', async () => {
    const q = queue()
    const ran: string[] = []
    q.register('tx', { run: async ({ payload }) => void ran.push((payload as { v: string }).v) })
    await database.handle.db
      .transaction(async (tx) => {
        await q.enqueue('tx', { v: 'rolled back' }, { tx })
        throw new Error('rollback')
      })
      .catch(() => undefined)
    await database.handle.db.transaction(async (tx) => {
      await q.enqueue('tx', { v: 'committed' }, { tx })
    })
    await q.drain()
    expect(ran).toEqual(['committed'])
  })
})
