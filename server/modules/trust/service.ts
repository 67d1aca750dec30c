import { createHash } from 'node:crypto'
import type { Database } from '../../db/client'
import { toDate } from '../../db/rows'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import { decodeCursor, keysetPage } from '../../lib/cursor'
import { Invalid, NotFound } from '../../lib/domain-errors'
import { LIMITS } from '../../../src/api/contract/limits'
import { TRUST_RECORD_INVALID, TRUST_RECORD_MAX_LENGTH, TRUST_RECORD_PATTERN } from '../../../src/api/contract/trust'
import { isBlockedBetween } from '../blocks/queries'
import { findUserById } from '../users/queries'
import { findTrustRecord, keyHistoryPage, storeTrustRecord } from './queries'

// Key history and trust records (docs/security.md, "Safety numbers and key changes"). The server's part is small on
// purpose: it reports the keys it has stored (which a member's browser checks against what it accepted before) and
// keeps each member's sealed decisions about their contacts' keys without being able to read or forge them.

export const USER_NOT_FOUND = 'User not found'

/** SHA-256 of the key's bytes, the first 16 bytes as 8 groups of 4 hex digits: short enough to read, for display. */
export function keyFingerprint(publicKey: string): string {
  const hex = createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('hex').slice(0, 32)
  return hex.match(/.{4}/g)?.join(' ') ?? hex
}

export class TrustService {
  private readonly db: Database

  constructor(deps: { db: Database }) {
    this.db = deps.db
  }

  /** The member whose key or record is asked for, seen as their public key is: 404 unknown or across a block. */
  private async visibleMember(viewer: UserRow, userId: string): Promise<UserRow> {
    const user = userId === viewer.id ? viewer : await findUserById(this.db, userId)
    if (!user || (user.id !== viewer.id && (await isBlockedBetween(this.db, viewer.id, user.id)))) {
      throw new NotFound(USER_NOT_FOUND)
    }
    return user
  }

  /** A contact: someone else, visible to the viewer. A record about oneself means nothing (the own key is local). */
  private async contact(viewer: UserRow, userId: string): Promise<UserRow> {
    if (userId === viewer.id) throw new NotFound(USER_NOT_FOUND)
    return this.visibleMember(viewer, userId)
  }

  async keyHistory(viewer: UserRow, userId: string, query: { cursor?: string; limit?: number }): Promise<Schemas['KeyHistoryPage']> {
    const user = await this.visibleMember(viewer, userId)
    const limit = query.limit ?? LIMITS.pageSize
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined
    const rows = await keyHistoryPage(this.db, user.id, cursor, limit + 1)
    const { items, nextCursor } = keysetPage(rows, limit, (row) => ({
      publicKey: row.public_key,
      fingerprint: keyFingerprint(row.public_key),
      since: toDate(row.since).toISOString(),
      until: row.until === null ? null : toDate(row.until).toISOString(),
    }))
    return { keys: items, nextCursor }
  }

  async trustRecord(viewer: UserRow, contactId: string): Promise<Schemas['TrustRecordResponse']> {
    const contact = await this.contact(viewer, contactId)
    const row = await findTrustRecord(this.db, viewer.id, contact.id)
    return { contactId: contact.id, record: row?.record ?? null, updatedAt: row ? toDate(row.updated_at).toISOString() : null }
  }

  /** Stored as sent: only the shape and size are checked, since only the member's browsers can open it. */
  async storeTrustRecord(viewer: UserRow, contactId: string, record: string): Promise<Schemas['TrustRecordResponse']> {
    if (record.length > TRUST_RECORD_MAX_LENGTH || !TRUST_RECORD_PATTERN.test(record)) throw new Invalid(TRUST_RECORD_INVALID)
    const contact = await this.contact(viewer, contactId)
    const row = await storeTrustRecord(this.db, viewer.id, contact.id, record)
    return { contactId: contact.id, record: row.record, updatedAt: toDate(row.updated_at).toISOString() }
  }
}
