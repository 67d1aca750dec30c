import { Transform, type Readable, type TransformCallback } from 'node:stream'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { type SqlExecutor, toDate } from '../../db/rows'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import { Invalid, NotFound } from '../../lib/domain-errors'
import type { WriteLimits } from '../../lib/write-limits'
import { newMediaKey } from '../../media/keys'
import { deleteQuietly, type Storage } from '../../storage/storage'
import { findUserById } from '../users/queries'
import {
  deleteMessageAttachments,
  deleteUnsent,
  findReadableAttachment,
  insertAttachment,
  linkAttachments,
  lockNameable,
} from './attachment-queries'
import { findMembership, messageRefusal, type Membership } from './queries'
import { CONVERSATION_NOT_FOUND, refuse } from './refusals'

// Encrypted photos and videos of direct messages (docs/security.md, "Attachments"). The server receives opaque
// blobs (the sender's browser encrypted each file under a fresh key that only the message's envelope carries), keeps
// them under DATA_DIR/attachments and serves them back only through the API, to whom may see the message naming
// them. It never reads a byte to decide anything: it counts them.

export const ATTACHMENT_EMPTY = 'The attachment is empty'
export const ATTACHMENT_NOT_FOUND = 'Attachment not found'
export const UNKNOWN_ATTACHMENT = 'Unknown attachment'
export const UPLOAD_INCOMPLETE = 'The upload ended before it was complete'

/** Blobs no message named by then are deleted: long enough for a slow send and its retries, short for leftovers. */
export const UNSENT_TTL_MS = 24 * 60 * 60 * 1000
/** Leftovers deleted per upload (each upload sweeps, so they never pile up faster than they go). */
const SWEEP_BATCH = 20

export interface MessageAttachmentDeps {
  db: Database
  attachmentStorage: Storage
  writeLimits: WriteLimits
  warn: (message: string, err: unknown) => void
}

/** Counts the bytes on their way to storage; fails when the body ends short of what it declared. */
class CountedBytes extends Transform {
  size = 0

  constructor(private readonly declared: number) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length
    if (this.size > this.declared) return done(new Invalid(UPLOAD_INCOMPLETE))
    done(null, chunk)
  }

  override _flush(done: TransformCallback): void {
    done(this.size === this.declared ? null : new Invalid(UPLOAD_INCOMPLETE))
  }
}

const toAttachment = (row: { id: string; size: number; created_at: unknown }): Schemas['MessageAttachment'] => ({
  id: row.id,
  size: row.size,
  createdAt: toDate(row.created_at).toISOString(),
})

export class MessageAttachmentService {
  private readonly db: Database
  private readonly storage: Storage
  private readonly writeLimits: WriteLimits
  private readonly warn: (message: string, err: unknown) => void

  constructor(deps: MessageAttachmentDeps) {
    this.db = deps.db
    this.storage = deps.attachmentStorage
    this.writeLimits = deps.writeLimits
    this.warn = deps.warn
  }

  /**
   * Stores one encrypted blob of `size` bytes (the request's Content-Length, bounded by the route) for a message in
   * the conversation. Who may upload is who may send there now (membership, blocks, allowDMs, keys), checked before
   * a byte is read; the upload counts in the member's media budgets.
   */
  async upload(viewer: UserRow, conversationId: string, body: Readable, size: number): Promise<Schemas['MessageAttachment']> {
    const membership = await this.membership(viewer, conversationId)
    const refusal = await this.db.transaction((tx) => messageRefusal(tx, viewer.id, membership.other_id))
    if (refusal) refuse(refusal, (await findUserById(this.db, membership.other_id))?.displayName ?? '')
    if (size === 0) throw new Invalid(ATTACHMENT_EMPTY)
    const taken = await this.writeLimits.countMedia(viewer.id, [size])
    const key = newMediaKey('attachments', '', 'bin')
    try {
      const counted = new CountedBytes(size)
      await this.storage.put(key, body.pipe(counted), 'application/octet-stream')
      const row = await insertAttachment(this.db, {
        id: uuidv7(),
        conversationId: membership.conversation_id,
        uploaderId: viewer.id,
        storageKey: key,
        size,
      })
      await this.sweep()
      return toAttachment(row)
    } catch (err) {
      await taken.refund()
      await deleteQuietly(this.storage, [key], (k, e) => this.warn(`could not delete attachment ${k}`, e))
      throw err
    }
  }

  /** The blob's bytes for the viewer, or 404 as if it did not exist (also for whoever may not see it). */
  async download(viewer: UserRow, attachmentId: string): Promise<{ stream: Readable; size: number }> {
    const row = await findReadableAttachment(this.db, attachmentId, viewer.id)
    const stream = row ? await this.storage.open(row.storage_key) : undefined
    if (!row || !stream) throw new NotFound(ATTACHMENT_NOT_FOUND)
    return { stream, size: row.size }
  }

  /**
   * In the send's or edit's transaction: the blobs the message names (`ids`) become the message's. Each must be the
   * sender's upload into this conversation, named by no other message; otherwise the whole write is refused. On an
   * edit (`messageId` given) blobs the message named before and no longer does are deleted: their storage keys are
   * answered, for `removeFiles` after commit.
   */
  async claim(
    tx: SqlExecutor,
    ids: readonly string[],
    conversationId: string,
    senderId: string,
    messageId: string,
    editing: boolean,
  ): Promise<string[]> {
    const found = await lockNameable(tx, ids, conversationId, senderId, editing ? messageId : null)
    if (found.length !== ids.length) throw new Invalid(UNKNOWN_ATTACHMENT)
    const removed = editing ? await deleteMessageAttachments(tx, messageId, ids) : []
    await linkAttachments(tx, ids, messageId)
    return removed
  }

  /** A deleted message's blobs: rows in the caller's transaction; answers the storage keys for `removeFiles`. */
  forget(tx: SqlExecutor, messageId: string): Promise<string[]> {
    return deleteMessageAttachments(tx, messageId)
  }

  /** Files of rows already deleted (after commit): a file left behind is only wasted space, logged. */
  async removeFiles(keys: readonly string[]): Promise<void> {
    await deleteQuietly(this.storage, keys, (key, err) => this.warn(`could not delete attachment ${key}`, err))
  }

  /** Blobs no message named within UNSENT_TTL_MS: gone, a batch per upload. Never fails the upload that runs it. */
  private async sweep(): Promise<void> {
    try {
      await this.removeFiles(await deleteUnsent(this.db, UNSENT_TTL_MS, SWEEP_BATCH))
    } catch (err) {
      this.warn('could not sweep unsent attachments', err)
    }
  }

  private async membership(viewer: UserRow, conversationId: string): Promise<Membership> {
    const membership = await findMembership(this.db, conversationId, viewer.id)
    if (!membership) throw new NotFound(CONVERSATION_NOT_FOUND)
    return membership
  }
}
