import type { Conversation, Participant } from '../../api/messages.calls'
import type { Opened, SealedMessage } from './message-crypto'

// The conversation list's pure rules: who the other member is, what a row's preview says, which rows the search
// keeps, the badge count, and how a refetched first page merges with the pages already loaded.

export const MESSAGE_UNAVAILABLE = 'Message unavailable'
export const MESSAGE_DELETED = 'This message was deleted'

/** The participant who is not the viewer (a conversation with oneself cannot exist; the first one stands in). */
export function otherParticipant(conversation: Conversation, me: string): Participant | undefined {
  return conversation.participants.find((p) => p.id !== me) ?? conversation.participants[0]
}

/** The last messages that still need decrypting for their previews (deleted ones have nothing to decrypt). */
export function sealedPreviews(conversations: ReadonlyArray<Conversation>, me: string, opened: Opened): SealedMessage[] {
  return conversations.flatMap((c) => {
    const last = c.lastMessage
    if (!last || last.deleted || last.id in opened) return []
    return [{ id: last.id, conversationId: c.id, senderId: last.senderId, content: last.content, otherPublicKey: otherParticipant(c, me)?.publicKey ?? null }]
  })
}

/** The preview line: empty before the first message or while decrypting, else the text or why there is none. */
export function previewText(conversation: Conversation, opened: Opened): string {
  const last = conversation.lastMessage
  if (!last) return ''
  if (last.deleted) return MESSAGE_DELETED
  if (!(last.id in opened)) return ''
  return opened[last.id] ?? MESSAGE_UNAVAILABLE
}

/** 'Search conversations': the other member's display name or username contains the query, in any case. */
export function matchesSearch(conversation: Conversation, me: string, query: string): boolean {
  const needle = query.trim().toLowerCase()
  if (needle === '') return true
  const other = otherParticipant(conversation, me)
  return !!other && (other.displayName.toLowerCase().includes(needle) || other.username.toLowerCase().includes(needle))
}

/** The conversation the member had open was read there (its actor marks incoming messages read): its row says so. */
export const readWhileOpen = (conversations: ReadonlyArray<Conversation>, openId: string | null): Conversation[] =>
  conversations.map((c) => (c.id === openId && c.unreadCount > 0 ? { ...c, unreadCount: 0 } : c))

/**
 * A refetched first page replaces the rows it holds and goes on top (most recent activity first); rows of later
 * pages it does not hold stay below, so a refetch never empties what the member scrolled to. Archived rows leave.
 */
export function mergeFirstPage(held: ReadonlyArray<Conversation>, first: ReadonlyArray<Conversation>): Conversation[] {
  const fresh = new Set(first.map((c) => c.id))
  return [...first, ...held.filter((c) => !fresh.has(c.id))].filter((c) => !c.archived)
}

/** A next page appended, without a row twice (activity may have moved a row between pages). */
export function appendPage(held: ReadonlyArray<Conversation>, page: ReadonlyArray<Conversation>): Conversation[] {
  const seen = new Set(held.map((c) => c.id))
  return [...held, ...page.filter((c) => !seen.has(c.id))]
}

/** The started or reopened conversation first, replacing its old row (the list is most recent activity first). */
export function putOnTop(held: ReadonlyArray<Conversation>, conversation: Conversation): Conversation[] {
  return [conversation, ...held.filter((c) => c.id !== conversation.id)]
}

/** A conversation's page, or the Messages page when there is none. */
export const conversationPath = (id: string | null) => (id === null ? '/messages' : `/messages/${encodeURIComponent(id)}`)
