import type { TrustRecord } from '../../crypto/trust-record'

// The rules of trusting the other member's key in a conversation (docs/product.md, "Direct messages"; the threat model
// in docs/security.md, "Safety numbers and key changes"). Pure: the conversation actor asks them with what its check
// found (the member's own key from this browser's key store, the keys the server reports, the member's sealed record
// for this contact) and goes to the state they name.

export const OWN_KEY_MISMATCH =
  'The server reports a different key for your account than the one in this browser. Someone may be trying to read ' +
  'your messages, so nothing is sent in this conversation. Log out and log in again; if this message stays, tell ' +
  'your administrator and compare safety numbers with your contact in person.'

export const keyChanged = (name: string, when: string | null) =>
  `${name}'s safety number changed${when ? ` on ${when}` : ''}. They may have new keys, or someone may be trying to ` +
  `read your messages. Compare the new safety number with ${name} (in person or another app), then acknowledge to ` +
  'send again.'

export const verifiedKeyChanged = (name: string, when: string | null) =>
  `You had verified ${name}. Their safety number changed${when ? ` on ${when}` : ''}, so ${name} is no longer ` +
  `verified. Unless ${name} told you they have new keys, someone may be trying to read your messages. Compare the new ` +
  'safety number before you acknowledge and send again.'

export const composerHeldForChange = (name: string) => `Acknowledge ${name}'s new safety number above to send messages.`
export const COMPOSER_HELD_FOR_OWN_KEY = 'Sending is turned off in this conversation: see the alert above.'

/** What the QR code of a safety number holds: a version label and the 60 digits, for a scanner to compare. */
export const safetyQrText = (safetyNumber: string) => `WREN-SAFETY-1:${safetyNumber.replace(/\s/g, '')}`

export const CHECKING_KEYS = 'Checking message keys…'
export const KEYS_UNAVAILABLE = 'Messages cannot be sent from this browser: your message key is not available here.'
export const TRUST_SAVE_FAILED = 'Your choice could not be saved. Try again.'
export const ACKNOWLEDGE = 'Acknowledge'
export const VERIFIED_TOAST = 'Marked as verified'
export const UNVERIFIED_TOAST = 'No longer marked as verified'

/** What the member's browsers decided before, as read back: none yet, one that opened, or one that did not open. */
export type RecordRead = { kind: 'none' } | { kind: 'opened'; record: TrustRecord } | { kind: 'unreadable' }

/** Where the conversation's key check lands. */
export type TrustVerdict =
  /** The server's idea of the member's own key is not the key in this browser: nothing may be sent. */
  | { kind: 'ownKeyMismatch' }
  /** No decision yet: trust on first use (record the key, like Signal); sending allowed. */
  | { kind: 'firstUse' }
  /** The key is the one accepted before. */
  | { kind: 'trusted'; verified: boolean }
  /** The key is not the one accepted before (or the record does not open): sending waits for an acknowledgement. */
  | { kind: 'changed'; wasVerified: boolean }

export interface TrustFacts {
  /** The member's own public key in this browser's key store (the keys actor). */
  readonly localOwnKey: string
  /** The member's own public key as the server reports it in the conversation. */
  readonly reportedOwnKey: string | null
  /** The other member's key as the server gives it now. */
  readonly theirKey: string
  readonly record: RecordRead
}

export function judgeTrust(facts: TrustFacts): TrustVerdict {
  // The own half is checked first: a server that swaps both sides' keys can report each one's fake as their own.
  if (facts.reportedOwnKey !== facts.localOwnKey) return { kind: 'ownKeyMismatch' }
  switch (facts.record.kind) {
    case 'none':
      return { kind: 'firstUse' }
    // A record that does not open was not sealed by this member for this contact (or the member has new keys): the
    // key it vouched for is unknown, so the current one is not taken on trust.
    case 'unreadable':
      return { kind: 'changed', wasVerified: false }
    case 'opened':
      return facts.record.record.contactKey === facts.theirKey
        ? { kind: 'trusted', verified: facts.record.record.verified }
        : { kind: 'changed', wasVerified: facts.record.record.verified }
  }
}

/** The time a key came into use, in the member's words ("27 Nov 2026"), from the key history's `since`. */
export function changedOn(since: string | null): string | null {
  if (!since) return null
  const date = new Date(since)
  return Number.isNaN(date.getTime()) ? null : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })
}
