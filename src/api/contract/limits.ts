// The product's limits, in one place for both sides: the SPA's rules (src/machines/*/*.rules.ts) check them before a
// call, the server's services enforce them again, and tests/api/contract.test.ts checks that openapi.yaml's
// maxLength/maxItems say the same. docs/product.md states them in words.

export const LIMITS = {
  /** Post text, in characters (code points). */
  postLength: 500,
  /** Photos and videos on one post. */
  postMedia: 4,
  /** The optional reason shown on a sensitive post's notice. */
  sensitiveReasonLength: 200,
  /** Alt text of one photo or video. */
  altTextLength: 1_000,
  usernameMin: 3,
  usernameMax: 30,
  displayNameMax: 50,
  bioMax: 500,
  passwordMin: 8,
  /** Lists and bookmark collections. */
  listNameMax: 50,
  listDescriptionMax: 200,
  muteReasonMax: 200,
  blockedKeywordMax: 100,
  hashtagMax: 100,
  /** A member search needs this many characters (after the '@' people type before a username). */
  userSearchMin: 2,
  userSearchMax: 100,
  /** One direct message's text, in characters (code points): the browser checks it before encrypting. */
  messageLength: 2_000,
  /**
   * The ciphertext envelope the server accepts for one message: messageLength characters at up to 4 UTF-8 bytes
   * each, AES-GCM's 16-byte tag, base64 (4/3), the IV and the envelope's JSON fit with room to spare.
   */
  messageEnvelopeMax: 12_000,
  /** A public message key as exported by the browser (SPKI or raw point in base64, or a JWK). */
  publicKeyMax: 200,
  /** A password-wrapped private message key (PKCS#8 of P-256 wrapped with AES-GCM, plus salt and parameters). */
  wrappedPrivateKeyMax: 2_000,
  /** Feed, profile tabs, replies, followers/following: one page. */
  pageSize: 20,
  /** Largest page a client may ask for. */
  pageSizeMax: 100,
} as const

export type Limits = typeof LIMITS
