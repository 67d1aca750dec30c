import type { Database } from '../../db/client'
import { toDate } from '../../db/rows'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { Forbidden, Invalid, NotFound } from '../../lib/domain-errors'
import type { RealtimeEvents } from '../../realtime/events'
import { isBlockedBetween } from '../blocks/queries'
import { receivingKey } from '../auth/keys'
import {
  ENVELOPE_MAX_LENGTH,
  ENVELOPE_PATTERN,
  ENVELOPE_V2_MAX_LENGTH,
  ENVELOPE_V2_PATTERN,
} from '../../../src/api/contract/encryption'
import type { MessageAttachmentService } from './attachments'
import {
  ADMINS_ONLY,
  ALREADY_DELETED,
  ATTACHMENTS_NEED_M2,
  CANNOT_MESSAGE_SELF,
  CONVERSATION_NOT_FOUND,
  DELETED_NOT_EDITABLE,
  MESSAGE_EMPTY,
  MESSAGE_NOT_CIPHERTEXT,
  MESSAGE_NOT_FOUND,
  NOT_YOUR_MESSAGE_DELETE,
  NOT_YOUR_MESSAGE_EDIT,
  refuse,
  USER_NOT_FOUND,
} from './refusals'
import { findUserById } from '../users/queries'
import {
  clearForMember,
  conversationExists,
  conversationPage,
  conversationRow,
  type ConversationRow,
  deleteMessage,
  editMessage,
  findMembership,
  findVisibleMessage,
  markKeylessAccounts,
  markRead,
  messageRefusal,
  sendMessage,
  type Membership,
  type MessageRow,
  messagePage,
  openConversation,
  setMemberFlag,
} from './queries'

type Conversation = Schemas['Conversation']
type DirectMessage = Schemas['DirectMessage']

/** What MessageService needs, by the names of the services registry (server/services.ts). */
export interface MessageDeps {
  db: Database
  realtime: RealtimeEvents
  messageAttachments: MessageAttachmentService
}

const iso = (value: unknown) => toDate(value).toISOString()

export function toDirectMessage(row: MessageRow): DirectMessage {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    senderId: row.sender_id,
    content: row.content,
    read: row.read,
    edited: row.edited,
    deleted: row.deleted,
    createdAt: iso(row.created_at),
    media: [],
  }
}

function toConversation(viewer: UserRow, row: ConversationRow): Conversation {
  return {
    id: row.id,
    participants: [
      {
        id: viewer.id,
        username: viewer.username,
        displayName: viewer.displayName,
        avatar: viewer.avatar,
        verified: viewer.verified,
        publicKey: receivingKey(viewer),
      },
      {
        id: row.other_id,
        username: row.other_username,
        displayName: row.other_display_name,
        avatar: row.other_avatar,
        verified: row.other_verified,
        publicKey: receivingKey({ publicKey: row.other_public_key, keysRequested: row.other_keys_requested }),
      },
    ],
    lastMessage:
      row.last_id === null
        ? null
        : {
            id: row.last_id,
            senderId: row.last_sender_id ?? '',
            content: row.last_content ?? '',
            read: row.last_read === true,
            deleted: row.last_deleted === true,
            createdAt: iso(row.last_created_at),
          },
    lastActivity: iso(row.last_activity_at),
    unreadCount: row.unread,
    muted: row.muted,
    archived: row.archived,
  }
}

/**
 * The ciphertext envelope in its exact format (`m1.<iv>.<ciphertext>`, or `m2.` for a message with attachments,
 * src/api/contract/encryption.ts), checked whatever route reached here (the contract checks only its alphabet and
 * the larger size first), each version against its own bound. Never decrypted: the server has no key to open it and
 * no business looking inside. Attachments can only travel in an m2 envelope, so naming blobs requires one.
 */
function checkEnvelope(content: string, attachmentIds: readonly string[]): string {
  if (content.trim() === '') throw new Invalid(MESSAGE_EMPTY)
  const withAttachments = content.startsWith('m2.')
  const max = withAttachments ? ENVELOPE_V2_MAX_LENGTH : ENVELOPE_MAX_LENGTH
  if (content.length > max) throw new Invalid(`content must be at most ${max} characters`)
  if (!(withAttachments ? ENVELOPE_V2_PATTERN : ENVELOPE_PATTERN).test(content)) throw new Invalid(MESSAGE_NOT_CIPHERTEXT)
  if (attachmentIds.length > 0 && !withAttachments) throw new Invalid(ATTACHMENTS_NEED_M2)
  return content
}

/**
 * Direct messages (docs/product.md, "Direct messages"; docs/security.md): 1:1 conversations whose messages are
 * ciphertext the members' browsers make. Only participants read or act; everyone else gets 404 as if nothing existed.
 */
export class MessageService {
  private readonly db: Database
  private readonly realtime: RealtimeEvents
  private readonly attachments: MessageAttachmentService

  constructor(deps: MessageDeps) {
    this.db = deps.db
    this.realtime = deps.realtime
    this.attachments = deps.messageAttachments
  }

  /** The viewer's membership, or 404 for everyone else. */
  private async membership(viewer: UserRow, conversationId: string): Promise<Membership> {
    const membership = await findMembership(this.db, conversationId, viewer.id)
    if (!membership) throw new NotFound(CONVERSATION_NOT_FOUND)
    return membership
  }

  private async present(viewer: UserRow, conversationId: string, listedOnly = false): Promise<Conversation> {
    const row = await conversationRow(this.db, viewer.id, conversationId, listedOnly)
    if (!row) throw new NotFound(CONVERSATION_NOT_FOUND)
    return toConversation(viewer, row)
  }

  /** One conversation for a link to it (archived ones too; one deleted for the viewer is gone for them). */
  async one(viewer: UserRow, conversationId: string): Promise<Conversation> {
    return this.present(viewer, conversationId, true)
  }

  async list(
    viewer: UserRow,
    archived: boolean,
    page: PageRequest,
  ): Promise<{ conversations: Conversation[]; nextCursor: string | null }> {
    const rows = await conversationPage(this.db, viewer.id, archived, page.cursor, page.offset, page.limit + 1)
    const { items, nextCursor } = keysetPage(rows, page.limit, (row) => toConversation(viewer, row))
    return { conversations: items, nextCursor }
  }

  /**
   * Starts a conversation, or reopens the existing one (un-archived and un-hidden for the viewer). `admitNew` runs
   * only when a new one is about to be made, under the members' row locks (the route's rate limit: it throws
   * TooMany), so reopening an existing conversation is never limited.
   */
  async start(
    viewer: UserRow,
    recipientId: string,
    admitNew: () => Promise<unknown> = () => Promise.resolve(),
  ): Promise<{ conversation: Conversation; created: boolean }> {
    if (recipientId === viewer.id) throw new Invalid(CANNOT_MESSAGE_SELF)
    const recipient = await findUserById(this.db, recipientId)
    if (!recipient) throw new NotFound(USER_NOT_FOUND)
    const { id, created } = await this.db.transaction(async (tx) => {
      const refusal = await messageRefusal(tx, viewer.id, recipient.id)
      if (refusal) refuse(refusal, recipient.displayName)
      if (!(await conversationExists(tx, viewer.id, recipient.id))) await admitNew()
      return openConversation(tx, viewer.id, recipient.id)
    })
    return { conversation: await this.present(viewer, id), created }
  }

  async history(viewer: UserRow, conversationId: string, page: PageRequest) {
    const membership = await this.membership(viewer, conversationId)
    const rows = await messagePage(
      this.db,
      membership.conversation_id,
      membership.cleared_at,
      page.cursor,
      page.offset,
      page.limit + 1,
    )
    const { items, nextCursor } = keysetPage(rows, page.limit, toDirectMessage)
    return { messages: items, nextCursor }
  }

  /**
   * Sends a ciphertext envelope. The rules of starting a conversation apply again (a block or an allowDMs change
   * since then wins), checked under the members' row locks in the same transaction as the insert: all of it one
   * statement (sendMessage), since a send is the hottest write there is (bench/README.md, messaging).
   */
  async send(
    viewer: UserRow,
    conversationId: string,
    content: string,
    attachmentIds: readonly string[] = [],
  ): Promise<DirectMessage> {
    const envelope = checkEnvelope(content, attachmentIds)
    // With attachments, the send and the naming of its blobs are one transaction: a blob that is not the sender's
    // upload into this conversation (or is already another message's) refuses the whole send.
    const outcome =
      attachmentIds.length === 0
        ? await sendMessage(this.db, conversationId, viewer.id, envelope)
        : await this.db.transaction(async (tx) => {
            const sent = await sendMessage(tx, conversationId, viewer.id, envelope)
            if ('refusal' in sent) refuse(sent.refusal, sent.otherName)
            await this.attachments.claim(tx, attachmentIds, sent.sent.conversation_id, viewer.id, sent.sent.id, false)
            return sent
          })
    if ('refusal' in outcome) refuse(outcome.refusal, outcome.otherName)
    const message = toDirectMessage(outcome.sent)
    this.realtime.toMembers([viewer.id, outcome.otherId], 'new_message', {
      conversationId: message.conversationId,
      message,
    })
    return message
  }

  /**
   * Replaces the ciphertext of the viewer's own message. An edit is a new text delivered to the other member, so it
   * meets the refusals of a send (messageRefusal, the same check and words): after a block either way, or once the
   * recipient accepts no messages from the viewer, their old messages cannot be rewritten either. Checked under the
   * members' row locks in the edit's transaction, as a send is, so a block committing meanwhile is seen or waits.
   */
  async edit(
    viewer: UserRow,
    messageId: string,
    content: string,
    attachmentIds: readonly string[] = [],
  ): Promise<DirectMessage> {
    const envelope = checkEnvelope(content, attachmentIds)
    const found = await findVisibleMessage(this.db, messageId, viewer.id)
    if (!found) throw new NotFound(MESSAGE_NOT_FOUND)
    if (found.sender_id !== viewer.id) throw new Forbidden(NOT_YOUR_MESSAGE_EDIT)
    if (found.deleted) throw new Forbidden(DELETED_NOT_EDITABLE)
    // The edit names the blobs the message carries from now on: new ones are claimed, dropped ones deleted.
    const { row, removed } = await this.db.transaction(async (tx) => {
      const refusal = await messageRefusal(tx, viewer.id, found.other_id)
      if (refusal) refuse(refusal, found.other_name)
      const edited = await editMessage(tx, found.id, viewer.id, envelope)
      if (!edited) return { row: undefined, removed: [] }
      const gone = await this.attachments.claim(tx, attachmentIds, edited.conversation_id, viewer.id, edited.id, true)
      return { row: edited, removed: gone }
    })
    if (!row) throw new Forbidden(DELETED_NOT_EDITABLE)
    await this.attachments.removeFiles(removed)
    const message = toDirectMessage(row)
    this.realtime.toMembers([viewer.id, found.other_id], 'message_edited', {
      conversationId: message.conversationId,
      message,
    })
    return message
  }

  /**
   * Deleting one's own message needs no consent of the other member: retracting what one wrote is always allowed.
   * Its attachments go with it, rows in the same transaction and files right after.
   */
  async remove(viewer: UserRow, messageId: string): Promise<void> {
    const found = await findVisibleMessage(this.db, messageId, viewer.id)
    if (!found) throw new NotFound(MESSAGE_NOT_FOUND)
    if (found.sender_id !== viewer.id) throw new Forbidden(NOT_YOUR_MESSAGE_DELETE)
    if (found.deleted) throw new Forbidden(ALREADY_DELETED)
    const { row, removed } = await this.db.transaction(async (tx) => {
      const deleted = await deleteMessage(tx, found.id, viewer.id)
      return { row: deleted, removed: deleted ? await this.attachments.forget(tx, deleted.id) : [] }
    })
    if (!row) throw new Forbidden(ALREADY_DELETED)
    await this.attachments.removeFiles(removed)
    const message = toDirectMessage(row)
    this.realtime.toMembers([viewer.id, found.other_id], 'message_deleted', {
      conversationId: message.conversationId,
      message,
    })
  }

  /**
   * Marks the viewer's incoming messages read. When that read anything, both members hear `messages_read`: the
   * sender's ticks turn double, and the reader's other tabs clear their badge. A read of nothing says nothing.
   */
  async markRead(viewer: UserRow, conversationId: string): Promise<void> {
    const membership = await this.membership(viewer, conversationId)
    const { count, readAt } = await markRead(this.db, membership.conversation_id, viewer.id)
    if (count === 0) return
    this.realtime.toMembers([viewer.id, membership.other_id], 'messages_read', {
      conversationId: membership.conversation_id,
      readerId: viewer.id,
      readAt: iso(readAt),
    })
  }

  async setArchived(viewer: UserRow, conversationId: string, archived: boolean): Promise<boolean> {
    const membership = await this.membership(viewer, conversationId)
    await setMemberFlag(this.db, membership.conversation_id, viewer.id, 'archived', archived)
    return archived
  }

  async setMuted(viewer: UserRow, conversationId: string, muted: boolean): Promise<boolean> {
    const membership = await this.membership(viewer, conversationId)
    await setMemberFlag(this.db, membership.conversation_id, viewer.id, 'muted', muted)
    return muted
  }

  /** "Delete conversation for me": the other participant keeps everything. */
  async deleteForMe(viewer: UserRow, conversationId: string): Promise<void> {
    const membership = await this.membership(viewer, conversationId)
    await clearForMember(this.db, membership.conversation_id, viewer.id)
  }

  /** A member's public key for encrypting to them: null when they cannot receive yet; 404 across a block. */
  async publicKeyOf(viewer: UserRow, userId: string): Promise<Schemas['PublicKeyResponse']> {
    const user = userId === viewer.id ? viewer : await findUserById(this.db, userId)
    if (!user || (user.id !== viewer.id && (await isBlockedBetween(this.db, viewer.id, user.id)))) {
      throw new NotFound(USER_NOT_FOUND)
    }
    return { id: user.id, publicKey: receivingKey(user) }
  }

  /**
   * Admins only. Keys are made in members' browsers, so "migrating" marks every keyless account: its next sign-in
   * makes the pair (PUT /auth/keys). Sessions already open see the mark on their next fresh read of the member (the
   * session cache holds rows for at most SESSION_CACHE_TTL_MS); sign-in always reads it fresh.
   */
  async migrateKeys(viewer: UserRow): Promise<Schemas['MigrateKeysResponse']> {
    if (!viewer.isAdmin) throw new Forbidden(ADMINS_ONLY)
    return markKeylessAccounts(this.db)
  }
}
