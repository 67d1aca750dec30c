import { randomBytes } from 'node:crypto'

/**
 * UUIDv7 (RFC 9562) generated in the app: PostgreSQL 15 has no `uuidv7()`, and time-ordered ids keep keyset
 * pagination on `id` in creation order and index inserts append-only.
 *
 * Ids made in the same millisecond stay ordered (RFC 9562 §6.2 method 1): the 12-bit `rand_a` field is a counter that
 * starts at a random value in its lower half each millisecond and increments; if it ever overflows, the timestamp is
 * advanced by one millisecond rather than going backwards.
 */

let lastMs = 0
let sequence = 0

export function uuidv7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now
    sequence = randomBytes(2).readUInt16BE(0) & 0x7ff
  } else {
    sequence += 1
    if (sequence > 0xfff) {
      lastMs += 1
      sequence = randomBytes(2).readUInt16BE(0) & 0x7ff
    }
  }
  const bytes = randomBytes(16)
  bytes.writeUIntBE(lastMs, 0, 6)
  bytes[6] = 0x70 | (sequence >> 8)
  bytes[7] = sequence & 0xff
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f)
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Ids are opaque to clients: anything that is not a uuid names nothing of ours (and must never reach a uuid cast). */
export const isUuid = (id: string) => UUID.test(id)
