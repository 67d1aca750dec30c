// The product's limits, in one place for both sides: the SPA's rules (src/machines/*/*.rules.ts) check them before a
// call, the server's services enforce them again, and tests/api/contract.test.ts checks that openapi.yaml's
// maxLength/maxItems say the same. docs/product.md states them in words.

import { ENVELOPE_V2_MAX_LENGTH, MESSAGE_ATTACHMENTS_MAX, PUBLIC_KEY_LENGTH, WRAPPED_KEY_MAX_LENGTH } from './encryption'

export const LIMITS = {
  /** Post text, in characters (code points). */
  postLength: 500,
  /** Photos and videos on one post. */
  postMedia: 4,
  /** The optional reason shown on a sensitive post's notice. */
  sensitiveReasonLength: 200,
  /** Alt text of one photo or video. */
  altTextLength: 1_000,
  /** Drafts and scheduled posts one member keeps at once. */
  draftsPerMember: 100,
  /** A scheduled post goes out at least this long after it is scheduled... */
  scheduleMinAheadMs: 60_000,
  /** ...and at most this long after (365 days). */
  scheduleMaxAheadMs: 365 * 24 * 60 * 60_000,
  usernameMin: 3,
  usernameMax: 30,
  displayNameMax: 50,
  bioMax: 500,
  passwordMin: 8,
  /** Lists and bookmark collections. */
  listNameMax: 50,
  listDescriptionMax: 200,
  /** Members on one list (its timeline reads them all). */
  listMembersMax: 5_000,
  muteReasonMax: 200,
  /** A report's optional description, and an admin's review note on it. */
  reportDescriptionMax: 1_000,
  reviewNoteMax: 1_000,
  blockedKeywordMax: 100,
  hashtagMax: 100,
  /** A member search needs this many characters (after the '@' people type before a username). */
  userSearchMin: 2,
  userSearchMax: 100,
  /** One direct message's text, in characters (code points): the browser checks it before encrypting. */
  messageLength: 2_000,
  /**
   * The longest ciphertext envelope the server accepts for one message, of any version (src/api/contract/encryption.ts:
   * 10,708 for text only, m1; 12,466 with attachments, m2).
   */
  messageEnvelopeMax: ENVELOPE_V2_MAX_LENGTH,
  /** Photos and videos on one direct message. */
  messageAttachments: MESSAGE_ATTACHMENTS_MAX,
  /** A public message key: the raw P-256 point in base64url, exactly this long (encryption.ts). */
  publicKeyMax: PUBLIC_KEY_LENGTH,
  /** A wrapped private message key, `wk2.` (legacy `wk1.`; encryption.ts, WRAPPED_KEY_MAX_LENGTH). */
  wrappedPrivateKeyMax: WRAPPED_KEY_MAX_LENGTH,
  /** Feed, profile tabs, replies, followers/following: one page. */
  pageSize: 20,
  /** Largest page a client may ask for. */
  pageSizeMax: 100,
  /**
   * How deep `page`/`limit` may read: page × limit at most this many items (so `page` is at most this, with limit 1).
   * Deeper items are read with the cursor (`nextCursor`), which the SPA always uses.
   */
  offsetItemsMax: 1_000,
  /**
   * Unread notifications are counted up to this many (the badge shows '99+' from 100 on): the count reads each unread
   * item's post to apply the visibility rules, so it stops here instead of reading hundreds (bench/README.md, "Search").
   */
  unreadCountCap: 100,
} as const

export type Limits = typeof LIMITS
