import type { SnapshotFrom } from 'xstate'
import type { ConversationMachine } from './conversation.machine'
import { cannotReceive, isBlank } from './conversation.rules'
import { changedOn, CHECKING_KEYS, COMPOSER_HELD_FOR_OWN_KEY, composerHeldForChange, KEYS_UNAVAILABLE, keyChanged, OWN_KEY_MISMATCH, verifiedKeyChanged } from './conversation.trust'
import { shownName } from '../lib/shown-name'

// What the open conversation's pane reads from its actor.

type Snapshot = SnapshotFrom<ConversationMachine>

export const MESSAGE_UNAVAILABLE = 'Message unavailable'
export const MESSAGE_WAS_DELETED = 'This message was deleted'
/**
 * A message that does not open although both keys are there: it was encrypted for a key pair one of the two members
 * no longer has (a password reset without the recovery key, an admin's migrate-keys), or it was tampered with.
 */
export const MESSAGE_UNDECRYPTABLE = "This message can't be decrypted on this account any more"

/** Whether this browser holds keys to try messages with: the key check ran and neither key is missing. */
const keysSettled = (s: Snapshot) =>
  s.matches({ ready: { keys: 'trusted' } }) ||
  s.matches({ ready: { keys: 'changed' } }) ||
  s.matches({ ready: { keys: 'acknowledging' } }) ||
  s.matches({ ready: { keys: 'ownKeyMismatch' } })

export const selectLoading = (s: Snapshot) => s.hasTag('loading')
export const selectFailed = (s: Snapshot) => s.matches('failed')
export const selectSending = (s: Snapshot) => s.hasTag('sending')
export const selectDraft = (s: Snapshot) => s.context.draft
export const selectSendError = (s: Snapshot) => (s.matches({ ready: { composer: 'sendFailed' } }) ? s.context.error : null)
export const selectEditing = (s: Snapshot) => s.context.editing
export const selectSafetyNumber = (s: Snapshot) => s.context.safetyNumber
/** Only a trusted key is encrypted to: the composer is disabled until then (checking, alert, changed key). */
export const selectKeyTrusted = (s: Snapshot) => s.matches({ ready: { keys: 'trusted' } })

/** The blocking alert: the server reports a key for the member that is not the one in this browser. */
export const selectOwnKeyAlert = (s: Snapshot) => (s.matches({ ready: { keys: 'ownKeyMismatch' } }) ? OWN_KEY_MISMATCH : null)

export interface KeyChangeWarning {
  readonly text: string
  /** The member had verified the old key: the stronger warning. */
  readonly wasVerified: boolean
  /** The acknowledgement is being saved. */
  readonly saving: boolean
}

/** "{name}'s safety number changed": shown, and sending held, until the member acknowledges. */
export function selectKeyChange(s: Snapshot): KeyChangeWarning | null {
  const saving = s.matches({ ready: { keys: 'acknowledging' } })
  if (!saving && !s.matches({ ready: { keys: 'changed' } })) return null
  const name = shownName(s.context.other)
  const when = changedOn(s.context.keyChangedAt)
  const wasVerified = s.context.wasVerified
  return { text: wasVerified ? verifiedKeyChanged(name, when) : keyChanged(name, when), wasVerified, saving }
}

/** The Verified mark on the other member, shown while their key is the one the member verified. */
export const selectVerified = (s: Snapshot) => selectKeyTrusted(s) && s.context.verified
export const selectCanVerify = (s: Snapshot) => s.can({ type: 'key.verify' })
export const selectCanUnverify = (s: Snapshot) => s.can({ type: 'key.unverify' })
/** A Verified change is being saved. */
export const selectTrustSaving = (s: Snapshot) =>
  s.matches({ ready: { keys: { trusted: 'verifying' } } }) || s.matches({ ready: { keys: { trusted: 'unverifying' } } })
export const selectHasOlder = (s: Snapshot) => s.context.nextCursor !== null

/**
 * Why the composer is disabled, in place of the input: no key for the other member, the server's refusal, no key in
 * this browser, or a key check that holds sending (still checking, the own-key alert, a changed key not yet
 * acknowledged).
 */
export function selectComposerNotice(s: Snapshot): string | null {
  if (s.matches({ ready: { composer: 'keysMissing' } })) return cannotReceive(shownName(s.context.other))
  if (s.matches({ ready: { composer: 'refused' } })) return s.context.notice
  if (s.matches({ ready: { keys: 'unavailable' } })) return KEYS_UNAVAILABLE
  // The input appears once the key check is done: typed text could not be sent before it.
  if (s.matches({ ready: { keys: 'checking' } })) return CHECKING_KEYS
  if (s.matches({ ready: { keys: 'ownKeyMismatch' } })) return COMPOSER_HELD_FOR_OWN_KEY
  if (s.matches({ ready: { keys: 'changed' } }) || s.matches({ ready: { keys: 'acknowledging' } })) {
    return composerHeldForChange(shownName(s.context.other))
  }
  return null
}

/** Send is offered with text typed or files picked, nothing pending, the key trusted and the composer not disabled. */
export const selectCanSend = (s: Snapshot) =>
  (s.matches({ ready: { composer: 'idle' } }) || s.matches({ ready: { composer: 'sendFailed' } })) &&
  selectKeyTrusted(s) &&
  (!isBlank(s.context.draft) || s.context.fileCount > 0)

/** The composer's photos and videos (its child actor), for the picker and the previews. */
export const selectFiles = (s: Snapshot) => s.children.attachments

/** The photos and videos a message carries, by id (none for most). */
export const selectMedia = (s: Snapshot) => s.context.media

export interface Bubble {
  readonly id: string
  readonly mine: boolean
  /**
   * What the bubble says: the text, 'This message was deleted', 'Message unavailable' (no keys to try it with here),
   * "This message can't be decrypted on this account any more" (the keys are there and do not open it), or '' while
   * decrypting.
   */
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
export const selectBubbles = (s: Snapshot): Bubble[] => {
  const unreadable = keysSettled(s) ? MESSAGE_UNDECRYPTABLE : MESSAGE_UNAVAILABLE
  return [...s.context.messages].reverse().map((m) => {
    const opened = s.context.opened[m.id]
    return {
      id: m.id,
      mine: m.senderId === s.context.me,
      text: m.deleted ? MESSAGE_WAS_DELETED : opened === undefined ? '' : (opened ?? unreadable),
      edited: m.edited,
      deleted: m.deleted,
      read: m.read,
      createdAt: m.createdAt,
      reportable: m.senderId !== s.context.me && !m.deleted && typeof opened === 'string' && opened !== '',
    }
  })
}
