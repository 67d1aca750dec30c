import { Conflict, Forbidden, NotFound } from '../../lib/domain-errors'
import type { Refusal } from './queries'

// The product's words (docs/product.md, "Direct messages").
export const CANNOT_MESSAGE_SELF = 'You cannot message yourself'
export const USER_NOT_FOUND = 'User not found'
export const CONVERSATION_NOT_FOUND = 'Conversation not found'
export const MESSAGE_NOT_FOUND = 'Message not found'
export const MESSAGE_EMPTY = 'Message cannot be empty'
export const MESSAGE_NOT_CIPHERTEXT = 'Message content must be an encrypted envelope'
export const NOT_YOUR_MESSAGE_EDIT = 'You can only edit your own messages'
export const NOT_YOUR_MESSAGE_DELETE = 'You can only delete your own messages'
export const DELETED_NOT_EDITABLE = 'Deleted messages cannot be edited'
export const ALREADY_DELETED = 'This message was already deleted'
export const SENDER_WITHOUT_KEYS = 'Set up your message key first: sign in again in the browser'
export const ADMINS_ONLY = 'Admin privileges required'
export const refusesMessages = (displayName: string) => `${displayName} doesn't accept messages from you`
export const cannotReceiveYet = (displayName: string) => `${displayName} can't receive messages yet`
export const ATTACHMENTS_NEED_M2 = 'A message with attachments must be an m2 envelope'

/**
 * The messaging rules' answer (messageRefusal / sendMessage, written out in migration 0011) in the member's words:
 * 403 for the recipient's choices and blocks, 409 for keys (a state that changes by itself at the next sign-in).
 */
export function refuse(refusal: Refusal | 'no-conversation', recipientName: string): never {
  switch (refusal) {
    case 'no-conversation':
      throw new NotFound(CONVERSATION_NOT_FOUND)
    case 'not-found':
      throw new NotFound(USER_NOT_FOUND)
    case 'refused':
      throw new Forbidden(refusesMessages(recipientName))
    case 'recipient-keys':
      throw new Conflict(cannotReceiveYet(recipientName))
    case 'sender-keys':
      throw new Conflict(SENDER_WITHOUT_KEYS)
  }
  throw new Error(`unknown refusal ${String(refusal)}`)
}
