import { sql } from 'drizzle-orm'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { isId } from './queries'

// The SQL of message attachments (migration 0021): encrypted blobs uploaded into a conversation, named by a message.

export interface AttachmentRow {
  id: string
  size: number
  created_at: unknown
}

export async function insertAttachment(
  db: SqlExecutor,
  row: { id: string; conversationId: string; uploaderId: string; storageKey: string; size: number },
): Promise<AttachmentRow> {
  const [inserted] = await selectRows<AttachmentRow>(
    db,
    sql`insert into message_attachments (id, conversation_id, uploader_id, storage_key, size)
        values (${row.id}, ${row.conversationId}, ${row.uploaderId}, ${row.storageKey}, ${row.size})
        returning id, size, created_at`,
  )
  if (!inserted) throw new Error('insert into message_attachments returned no row')
  return inserted
}

/**
 * Locks the blobs the sender may name in this conversation's message: uploaded by them into it, and named by no
 * other message (or already by `messageId`, for an edit). Answers the ids found; the caller compares them with the
 * ids asked for.
 */
export async function lockNameable(
  tx: SqlExecutor,
  ids: readonly string[],
  conversationId: string,
  senderId: string,
  messageId: string | null,
): Promise<string[]> {
  const uuids = ids.filter(isId)
  if (uuids.length === 0) return []
  const mine = messageId === null ? sql`message_id is null` : sql`(message_id is null or message_id = ${messageId})`
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`select id from message_attachments
        where id in (${sql.join(
          uuids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) and conversation_id = ${conversationId} and uploader_id = ${senderId} and ${mine}
        order by id for update`,
  )
  return rows.map((r) => r.id)
}

/** Names the blobs as the message's. */
export async function linkAttachments(tx: SqlExecutor, ids: readonly string[], messageId: string): Promise<void> {
  if (ids.length === 0) return
  await tx.execute(
    sql`update message_attachments set message_id = ${messageId}
        where id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
  )
}

/** Deletes the message's blobs except `keep`; answers their storage keys (the files go after commit). */
export async function deleteMessageAttachments(
  tx: SqlExecutor,
  messageId: string,
  keep: readonly string[] = [],
): Promise<string[]> {
  const except =
    keep.length === 0
      ? sql``
      : sql`and id not in (${sql.join(
          keep.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
  const rows = await selectRows<{ storage_key: string }>(
    tx,
    sql`delete from message_attachments where message_id = ${messageId} ${except} returning storage_key`,
  )
  return rows.map((r) => r.storage_key)
}

/** Blobs no message named within `olderThanMs`: deleted, a batch at a time; answers their storage keys. */
export async function deleteUnsent(db: SqlExecutor, olderThanMs: number, batch: number): Promise<string[]> {
  const rows = await selectRows<{ storage_key: string }>(
    db,
    sql`delete from message_attachments where id in (
          select id from message_attachments
          where message_id is null and created_at < now() - ${olderThanMs}::int * interval '1 millisecond'
          order by created_at limit ${batch} for update skip locked)
        returning storage_key`,
  )
  return rows.map((r) => r.storage_key)
}

/**
 * The blob's storage key and size when the viewer may read it: they can see the message that names it (a
 * participant, the message not deleted, and sent after their "delete for me"), or, before any message names it,
 * they uploaded it.
 */
export async function findReadableAttachment(
  db: SqlExecutor,
  attachmentId: string,
  viewerId: string,
): Promise<{ storage_key: string; size: number } | undefined> {
  if (!isId(attachmentId)) return undefined
  const [row] = await selectRows<{ storage_key: string; size: number }>(
    db,
    sql`select a.storage_key, a.size from message_attachments a
        where a.id = ${attachmentId} and (
          (a.message_id is null and a.uploader_id = ${viewerId})
          or exists (
            select 1 from messages m
            join conversation_members cm on cm.conversation_id = m.conversation_id and cm.user_id = ${viewerId}
            where m.id = a.message_id and not m.deleted and (cm.cleared_at is null or m.created_at > cm.cleared_at)))`,
  )
  return row
}
