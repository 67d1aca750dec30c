import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Ids come from paths: anything that is not a uuid names nothing (and must not reach a uuid cast). */
export const isId = (id: string) => UUID.test(id)

// ---- members ----------------------------------------------------------------------------------------------------

// ---- conversations ----------------------------------------------------------------------------------------------

/** The viewer's own row of a conversation (undefined when they are not a participant) and the other member. */
export interface Membership {
  conversation_id: string
  other_id: string
  muted: boolean
  archived: boolean
  cleared_at: unknown
}

export async function findMembership(
  db: SqlExecutor,
  conversationId: string,
  viewerId: string,
): Promise<Membership | undefined> {
  if (!isId(conversationId)) return undefined
  const [row] = await selectRows<Membership>(
    db,
    sql`select cm.conversation_id, om.user_id as other_id, cm.muted, cm.archived, cm.cleared_at
        from conversation_members cm
        join conversation_members om on om.conversation_id = cm.conversation_id and om.user_id <> cm.user_id
        where cm.conversation_id = ${conversationId} and cm.user_id = ${viewerId}`,
  )
  return row
}

const ordered = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a])

/**
 * The pair's conversation, made with both member rows if there is none; the viewer's row is un-archived and
 * un-hidden either way (starting a conversation again reopens it). The unique pair index decides a race between two
 * starts: the loser's insert does nothing and it reads the winner's row once that commits.
 */
/** Whether the two members already have a conversation (whatever either of them did with it). */
export async function conversationExists(tx: Database, a: string, b: string): Promise<boolean> {
  const [low, high] = ordered(a, b)
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`select id from conversations where member_low = ${low} and member_high = ${high}`,
  )
  return rows.length > 0
}

export async function openConversation(
  tx: Database,
  viewerId: string,
  otherId: string,
): Promise<{ id: string; created: boolean }> {
  const [low, high] = ordered(viewerId, otherId)
  const [made] = await selectRows<{ id: string }>(
    tx,
    sql`insert into conversations (id, member_low, member_high) values (${uuidv7()}, ${low}, ${high})
        on conflict (member_low, member_high) do nothing returning id`,
  )
  if (made) {
    await tx.execute(
      sql`insert into conversation_members (conversation_id, user_id) values (${made.id}, ${low}), (${made.id}, ${high})`,
    )
    return { id: made.id, created: true }
  }
  const [existing] = await selectRows<{ id: string }>(
    tx,
    sql`select id from conversations where member_low = ${low} and member_high = ${high}`,
  )
  if (!existing) throw new Error('conversation vanished between insert and select')
  await tx.execute(
    sql`update conversation_members set archived = false, hidden = false
        where conversation_id = ${existing.id} and user_id = ${viewerId} and (archived or hidden)`,
  )
  return { id: existing.id, created: false }
}

/** A conversation as the viewer's list shows it (see `conversationRows`). */
export interface ConversationRow {
  id: string
  at: string
  last_activity_at: unknown
  muted: boolean
  archived: boolean
  unread: number
  other_id: string
  other_username: string
  other_display_name: string
  other_avatar: string | null
  other_verified: boolean
  other_public_key: string | null
  other_keys_requested: boolean
  last_id: string | null
  last_sender_id: string | null
  last_content: string | null
  last_read: boolean | null
  last_deleted: boolean | null
  last_created_at: unknown
}

/**
 * The viewer's conversations with the other member, the last message the viewer may still see (after their
 * "delete for me") and the exact count of incoming unread messages (the partial unread index). `where` narrows to a
 * list page or to one conversation.
 */
function conversationRows(viewerId: string, where: SQL, tail: SQL): SQL {
  return sql`select cm.conversation_id as id, ${micros(sql`cm.last_activity_at`)} as at, cm.last_activity_at,
      cm.muted, cm.archived,
      (select count(*)::int from messages u
        where u.conversation_id = cm.conversation_id and u.sender_id <> ${viewerId}
          and u.read_at is null and not u.deleted
          and (cm.cleared_at is null or u.created_at > cm.cleared_at)) as unread,
      o.id as other_id, o.username as other_username, o.display_name as other_display_name,
      o.avatar as other_avatar, o.verified as other_verified, o.public_key as other_public_key,
      o.keys_requested as other_keys_requested,
      lm.id as last_id, lm.sender_id as last_sender_id, lm.content as last_content, lm.read as last_read,
      lm.deleted as last_deleted, lm.created_at as last_created_at
    from conversation_members cm
    join conversation_members om on om.conversation_id = cm.conversation_id and om.user_id <> cm.user_id
    join users o on o.id = om.user_id
    left join lateral (
      select m.id, m.sender_id, m.content, m.read_at is not null as read, m.deleted, m.created_at
      from messages m
      where m.conversation_id = cm.conversation_id and (cm.cleared_at is null or m.created_at > cm.cleared_at)
      order by m.created_at desc, m.id desc limit 1
    ) lm on true
    where cm.user_id = ${viewerId} and ${where}
    ${tail}`
}

/** One page of the viewer's list, archived or not, most recent activity first; keyset on (activity, id). */
export async function conversationPage(
  db: SqlExecutor,
  viewerId: string,
  archived: boolean,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<ConversationRow[]> {
  const after = cursor
    ? sql`and (cm.last_activity_at, cm.conversation_id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)`
    : sql``
  return selectRows<ConversationRow>(
    db,
    conversationRows(
      viewerId,
      sql`cm.archived = ${archived} and not cm.hidden ${after}`,
      sql`order by cm.last_activity_at desc, cm.conversation_id desc offset ${offset} limit ${limit}`,
    ),
  )
}

/** One conversation of the viewer; `listedOnly` leaves out one they deleted for themselves (a link to it is a 404). */
export async function conversationRow(
  db: SqlExecutor,
  viewerId: string,
  conversationId: string,
  listedOnly = false,
): Promise<ConversationRow | undefined> {
  if (!isId(conversationId)) return undefined
  const where = listedOnly ? sql`cm.conversation_id = ${conversationId} and not cm.hidden` : sql`cm.conversation_id = ${conversationId}`
  const [row] = await selectRows<ConversationRow>(db, conversationRows(viewerId, where, sql``))
  return row
}

/** Archive, mute: the viewer's own flags. */
export async function setMemberFlag(
  db: SqlExecutor,
  conversationId: string,
  viewerId: string,
  flag: 'archived' | 'muted',
  value: boolean,
): Promise<void> {
  await db.execute(
    sql`update conversation_members set ${sql.raw(flag)} = ${value}
        where conversation_id = ${conversationId} and user_id = ${viewerId}`,
  )
}

/** "Delete for me": off the viewer's list, and the messages so far out of their history, until a new message. */
export async function clearForMember(db: SqlExecutor, conversationId: string, viewerId: string): Promise<void> {
  await db.execute(
    sql`update conversation_members set hidden = true, archived = false, cleared_at = now()
        where conversation_id = ${conversationId} and user_id = ${viewerId}`,
  )
}

// ---- messages ---------------------------------------------------------------------------------------------------

export interface MessageRow {
  id: string
  conversation_id: string
  sender_id: string
  content: string
  edited: boolean
  deleted: boolean
  read: boolean
  created_at: unknown
  at: string
}

const messageColumns = sql`m.id, m.conversation_id, m.sender_id, m.content, m.edited, m.deleted,
  m.read_at is not null as read, m.created_at, ${micros(sql`m.created_at`)} as at`

/** One page of a conversation's history as the viewer may see it, newest first; keyset on (time, id). */
export async function messagePage(
  db: SqlExecutor,
  conversationId: string,
  clearedAt: unknown,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<MessageRow[]> {
  const cleared = clearedAt === null || clearedAt === undefined ? sql`` : sql`and m.created_at > ${clearedAt}`
  const after = cursor ? sql`and (m.created_at, m.id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``
  return selectRows<MessageRow>(
    db,
    sql`select ${messageColumns} from messages m
        where m.conversation_id = ${conversationId} ${cleared} ${after}
        order by m.created_at desc, m.id desc offset ${offset} limit ${limit}`,
  )
}

/** A message the viewer may see (a participant, and not before their "delete for me"). */
export async function findVisibleMessage(
  db: SqlExecutor,
  messageId: string,
  viewerId: string,
): Promise<(MessageRow & { other_id: string; other_name: string }) | undefined> {
  if (!isId(messageId)) return undefined
  const [row] = await selectRows<MessageRow & { other_id: string; other_name: string }>(
    db,
    sql`select ${messageColumns}, om.user_id as other_id, ou.display_name as other_name
        from messages m
        join conversation_members cm on cm.conversation_id = m.conversation_id and cm.user_id = ${viewerId}
        join conversation_members om on om.conversation_id = m.conversation_id and om.user_id <> ${viewerId}
        join users ou on ou.id = om.user_id
        where m.id = ${messageId} and (cm.cleared_at is null or m.created_at > cm.cleared_at)`,
  )
  return row
}

/**
 * Replaces the ciphertext of the sender's own message, unless it was deleted meanwhile (then undefined): the
 * condition is in the statement, so an edit racing a delete cannot bring deleted content back.
 */
export async function editMessage(
  db: SqlExecutor,
  messageId: string,
  senderId: string,
  content: string,
): Promise<MessageRow | undefined> {
  const [row] = await selectRows<MessageRow>(
    db,
    sql`with m as (
          update messages set content = ${content}, edited = true, edited_at = now()
          where id = ${messageId} and sender_id = ${senderId} and not deleted returning *)
        select ${messageColumns} from m`,
  )
  return row
}

/** Erases the ciphertext and marks the message deleted, once: undefined when it already was. */
export async function deleteMessage(
  db: SqlExecutor,
  messageId: string,
  senderId: string,
): Promise<MessageRow | undefined> {
  const [row] = await selectRows<MessageRow>(
    db,
    sql`with m as (
          update messages set content = '', deleted = true
          where id = ${messageId} and sender_id = ${senderId} and not deleted returning *)
        select ${messageColumns} from m`,
  )
  return row
}

/** Marks every incoming unread message of the conversation read; returns how many. */
/** Marks the viewer's incoming unread messages read: how many, and when (null when there were none). */
export async function markRead(
  db: SqlExecutor,
  conversationId: string,
  viewerId: string,
): Promise<{ count: number; readAt: unknown }> {
  const rows = await selectRows<{ read_at: unknown }>(
    db,
    sql`update messages set read_at = now()
        where conversation_id = ${conversationId} and sender_id <> ${viewerId} and read_at is null and not deleted
        returning read_at`,
  )
  return { count: rows.length, readAt: rows[0]?.read_at ?? null }
}

// ---- keys -------------------------------------------------------------------------------------------------------

/**
 * migrate-keys: marks every keyless, unmarked account; answers how many this call marked and how many marked
 * accounts still have no keys (this call's and earlier ones).
 */
export async function markKeylessAccounts(db: SqlExecutor): Promise<{ migrated: number; pending: number }> {
  const [row] = await selectRows<{ migrated: number; pending: number }>(
    db,
    sql`with marked as (
          update users set keys_requested = true, updated_at = now()
          where public_key is null and not keys_requested returning id)
        select (select count(*)::int from marked) as migrated,
          (select count(*)::int from users where keys_requested) + (select count(*)::int from marked) as pending`,
  )
  return row ?? { migrated: 0, pending: 0 }
}

// ---- the rules and a send, in the database (migration 0011) -------------------------------------------------------

/** Why a member may not message another now (migration 0011 states each), or null when they may. */
export type Refusal = 'not-found' | 'refused' | 'recipient-keys' | 'sender-keys'

/**
 * The messaging rules for a start, in the caller's transaction: both members share-locked in id order, then each rule
 * read fresh (wren_message_refusal), so a block or an allowDMs change committing meanwhile is seen or waits for us.
 */
export async function messageRefusal(tx: SqlExecutor, senderId: string, recipientId: string): Promise<Refusal | null> {
  const [row] = await selectRows<{ refusal: Refusal | null }>(
    tx,
    sql`select wren_message_refusal(${senderId}::uuid, ${recipientId}::uuid) as refusal`,
  )
  return row?.refusal ?? null
}

export type SendOutcome =
  | { sent: MessageRow; otherId: string }
  | { refusal: Refusal | 'no-conversation'; otherName: string }

/**
 * A send in one round trip (wren_send_message): membership, the rules, the message and both members' list rows in
 * the statement's own transaction. Refused, nothing is written.
 */
export async function sendMessage(
  db: SqlExecutor,
  conversationId: string,
  senderId: string,
  content: string,
): Promise<SendOutcome> {
  if (!isId(conversationId)) return { refusal: 'no-conversation', otherName: '' }
  const [row] = await selectRows<MessageRow & { refusal: Refusal | 'no-conversation' | null; other_id: string; other_name: string | null }>(
    db,
    sql`select * from wren_send_message(${uuidv7()}::uuid, ${conversationId}::uuid, ${senderId}::uuid, ${content})`,
  )
  if (!row) throw new Error('wren_send_message answered no row')
  if (row.refusal !== null) return { refusal: row.refusal, otherName: row.other_name ?? '' }
  const { refusal: _refusal, other_id, other_name: _name, ...sent } = row
  return { sent, otherId: other_id }
}
