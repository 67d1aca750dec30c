import type { SnapshotFrom } from 'xstate'
import type { ConversationMachine } from './conversation.machine'
import { cannotReceive, isBlank } from './conversation.rules'

// What the open conversation's pane reads from its actor.

type Snapshot = SnapshotFrom<ConversationMachine>

export const MESSAGE_UNAVAILABLE = 'Message unavailable'
export const MESSAGE_WAS_DELETED = 'This message was deleted'

export const selectLoading = (s: Snapshot) => s.hasTag('loading')
export const selectFailed = (s: Snapshot) => s.matches('failed')
export const selectSending = (s: Snapshot) => s.hasTag('sending')
export const selectDraft = (s: Snapshot) => s.context.draft
export const selectSendError = (s: Snapshot) => (s.matches({ ready: { composer: 'sendFailed' } }) ? s.context.error : null)
export const selectEditing = (s: Snapshot) => s.context.editing
export const selectSafetyNumber = (s: Snapshot) => s.context.safetyNumber
export const selectKeyWarning = (s: Snapshot) => s.matches({ ready: { key: 'changed' } })
export const selectHasOlder = (s: Snapshot) => s.context.nextCursor !== null

/** Why the composer is disabled, in place of the input: no key for the other member, or the server's refusal. */
export function selectComposerNotice(s: Snapshot): string | null {
  if (s.matches({ ready: { composer: 'keysMissing' } })) return cannotReceive(s.context.other?.displayName ?? '')
  if (s.matches({ ready: { composer: 'refused' } })) return s.context.notice
  return null
}

/** Send is offered with text typed or files picked, nothing pending, and the composer not disabled (blank is refused). */
export const selectCanSend = (s: Snapshot) =>
  (s.matches({ ready: { composer: 'idle' } }) || s.matches({ ready: { composer: 'sendFailed' } })) &&
  (!isBlank(s.context.draft) || s.context.fileCount > 0)

/** The composer's photos and videos (its child actor), for the picker and the previews. */
export const selectFiles = (s: Snapshot) => s.children.attachments

/** The photos and videos a message carries, by id (none for most). */
export const selectMedia = (s: Snapshot) => s.context.media

export interface Bubble {
  readonly id: string
  readonly mine: boolean
  /** What the bubble says: the text, 'This message was deleted', 'Message unavailable', or '' while decrypting. */
  readonly text: string
  readonly edited: boolean
  readonly deleted: boolean
  /** Double tick for the sender's read messages, single otherwise. */
  readonly read: boolean
  readonly createdAt: string
  /** Theirs, not deleted, and decrypted here: Report may quote its text. */
  readonly reportable: boolean
}

/** The history as the pane shows it: oldest first, newest at the bottom. */
export const selectBubbles = (s: Snapshot): Bubble[] =>
  [...s.context.messages].reverse().map((m) => {
    const opened = s.context.opened[m.id]
    return {
      id: m.id,
      mine: m.senderId === s.context.me,
      text: m.deleted ? MESSAGE_WAS_DELETED : opened === undefined ? '' : (opened ?? MESSAGE_UNAVAILABLE),
      edited: m.edited,
      deleted: m.deleted,
      read: m.read,
      createdAt: m.createdAt,
      reportable: m.senderId !== s.context.me && !m.deleted && typeof opened === 'string' && opened !== '',
    }
  })
