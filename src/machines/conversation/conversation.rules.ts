import type { DirectMessage } from '../../api/messages.calls'
import type { Opened, SealedMessage } from '../conversations/message-crypto'

// The open conversation's pure rules: texts, what may be sent or edited, and how pages and answers fold into the
// history (held newest first, as the server pages it; the view shows it newest at the bottom).

export const SEND_FAILED = 'Failed to send message'
export const EDIT_FAILED = 'Failed to edit message'
export const DELETE_FAILED = 'Failed to delete message'
export const MESSAGE_DELETED_TOAST = 'Message deleted'
export const cannotReceive = (name: string) => `${name} can't receive messages yet`
export const doesNotAccept = (name: string) => `${name} doesn't accept messages from you`

export const isBlank = (text: string) => text.trim() === ''

/** The ciphertexts of the history still to decrypt (deleted messages have none). */
export function sealedMessages(messages: ReadonlyArray<DirectMessage>, opened: Opened, otherPublicKey: string | null): SealedMessage[] {
  return messages
    .filter((m) => !m.deleted && !(m.id in opened))
    .map((m) => ({ id: m.id, conversationId: m.conversationId, senderId: m.senderId, content: m.content, otherPublicKey }))
}

/** A fresh newest page over what is held: its messages replace their old versions; older ones stay. */
export function mergeNewest(held: ReadonlyArray<DirectMessage>, page: ReadonlyArray<DirectMessage>): DirectMessage[] {
  const fresh = new Set(page.map((m) => m.id))
  return [...page, ...held.filter((m) => !fresh.has(m.id))]
}

/** An older page goes after (older than) what is held, without duplicates. */
export function appendOlder(held: ReadonlyArray<DirectMessage>, page: ReadonlyArray<DirectMessage>): DirectMessage[] {
  const seen = new Set(held.map((m) => m.id))
  return [...held, ...page.filter((m) => !seen.has(m.id))]
}

/** One message replaced by the server's new version (an edit, a delete), or put on top when new. */
export function upsert(held: ReadonlyArray<DirectMessage>, message: DirectMessage): DirectMessage[] {
  return held.some((m) => m.id === message.id) ? held.map((m) => (m.id === message.id ? message : m)) : [message, ...held]
}

export const hasUnreadIncoming = (messages: ReadonlyArray<DirectMessage>, me: string) =>
  messages.some((m) => m.senderId !== me && !m.read && !m.deleted)

/** Only the sender edits or deletes, and never a deleted message (docs/product.md, "Direct messages"). */
export const canChange = (message: DirectMessage | undefined, me: string): message is DirectMessage =>
  !!message && message.senderId === me && !message.deleted

/** Texts to read again: a refreshed page carries a message whose content changed (edited since it was decrypted). */
export function forgetChanged(opened: Opened, held: ReadonlyArray<DirectMessage>, page: ReadonlyArray<DirectMessage>): Opened {
  const before = new Map(held.map((m) => [m.id, m.content]))
  const changed = new Set(page.filter((m) => before.has(m.id) && before.get(m.id) !== m.content).map((m) => m.id))
  return changed.size === 0 ? opened : Object.fromEntries(Object.entries(opened).filter(([id]) => !changed.has(id)))
}
