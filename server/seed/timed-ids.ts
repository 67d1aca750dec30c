import { uuidv7 } from '../db/ids'

/**
 * Ids for rows created "in the past". The app's UUIDv7 embeds the creation millisecond and the feed pages by
 * (created_at, id), so a seeded row's id must embed its seeded created_at, or keyset pages would interleave wrongly.
 *
 * server/db/ids.ts keeps ids of one process monotonic: asked for a time earlier than an id it already made, it uses
 * the later time. The seed therefore asks in ascending time order, and reads the time back from every id so the
 * row's created_at is always exactly the id's (`ids.ts` may also move a millisecond forward after 4096 ids in one).
 */

/** The millisecond a UUIDv7 embeds (its first 48 bits). */
export function uuidv7Time(id: string): number {
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)
}

// Beyond this the process has made ids for a later time already (it is not a fresh process, or its clock jumped).
const MAX_DRIFT_MS = 1_000

export class TimedIds {
  private last = -Infinity

  /** An id for `ms` (ascending calls only) and the exact millisecond it embeds. */
  next(ms: number): { id: string; ms: number } {
    const wanted = Math.floor(ms)
    if (wanted < this.last) throw new Error('TimedIds: times must be requested in ascending order')
    this.last = wanted
    const id = uuidv7(wanted)
    const embedded = uuidv7Time(id)
    if (embedded - wanted > MAX_DRIFT_MS) {
      throw new Error(
        `This process already made ids for a later time (${new Date(embedded).toISOString()}); ` +
          'seed from a fresh process, before the app creates anything',
      )
    }
    return { id, ms: embedded }
  }
}
