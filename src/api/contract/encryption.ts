// The shapes of the end-to-end encrypted strings, shared by the SPA (src/crypto/, which makes and reads them) and the
// server (which stores and relays them without ever decrypting: it can only check their shape and size). The formats
// are described in src/crypto/README.md and docs/security.md, "In the browser".

/** Longest direct message, in characters (code points, as LIMITS.postLength). The spec names no limit; this is ours. */
export const MESSAGE_MAX_LENGTH = 2_000

/** Base64url without padding: the alphabet every binary part of these strings uses. */
const B64 = '[A-Za-z0-9_-]'
/** The last character of a 1-byte tail (4 unused bits, zero) and of a 2-byte tail (2 unused bits, zero). */
const TAIL_1 = `${B64}[AQgw]`
const TAIL_2 = `${B64}{2}[AEIMQUYcgkosw048]`

/**
 * Canonical unpadded base64url (as src/crypto/encoding.ts fromBase64url accepts it: no padding, no length of 4k+1,
 * no stray bits in the last character) of exactly `bytes` bytes.
 */
function exactBytes(bytes: number): string {
  const tail = bytes % 3 === 0 ? '' : bytes % 3 === 1 ? TAIL_1 : TAIL_2
  return `${B64}{${Math.floor(bytes / 3) * 4}}${tail}`
}

/** Canonical unpadded base64url of at least `bytes` bytes (a lookahead bounds the part's length from below). */
function atLeastBytes(bytes: number): string {
  return `(?=${B64}{${Math.ceil((bytes * 4) / 3)}})(?:${B64}{4})*(?:${TAIL_1}|${TAIL_2})?`
}

/** A public key's length: the raw uncompressed P-256 point, 65 bytes, in base64url. */
export const PUBLIC_KEY_LENGTH = 87

/**
 * A member's public key: the raw uncompressed P-256 point (65 bytes, the first 0x04) in canonical base64url, always
 * 87 characters, the first `B` (0x04's top six bits) and the second one of A-P.
 */
export const PUBLIC_KEY_PATTERN = new RegExp(`^B[A-P]${B64}{82}${TAIL_2}$`)

/**
 * PBKDF2 iterations a wrapped key may name: 100,000 to 10,000,000 (src/crypto/wrap.ts unwraps at most
 * PBKDF2_MAX_ITERATIONS; the app wraps at OWASP's 600,000).
 */
const ITERATIONS = '(?:[1-9][0-9]{5,6}|10000000)'

/**
 * The legacy password-wrapped private key: `wk1.<iterations>.<salt>.<iv>.<ciphertext>` (see src/crypto/wrap.ts): a
 * 16-byte salt (22 characters), a 12-byte IV (16 characters) and more than 16 bytes of ciphertext and tag, canonical
 * base64url. Read only: an account not yet moved over still holds one.
 */
const WRAPPED_KEY_V1 = `wk1\\.${ITERATIONS}\\.${exactBytes(16)}\\.${exactBytes(12)}\\.${atLeastBytes(17)}`

/**
 * The private key wrapped under an AES key (the password's wrapping key): `wk2.<iv>.<ciphertext>` (see
 * src/crypto/wrap.ts), a 12-byte IV and more than 16 bytes of ciphertext and tag. The only format the server stores.
 */
const WRAPPED_KEY_V2 = `wk2\\.${exactBytes(12)}\\.${atLeastBytes(17)}`
export const WRAPPED_KEY_V2_PATTERN = new RegExp(`^${WRAPPED_KEY_V2}$`)

/**
 * The recovery copy: the private key wrapped under the member's message recovery key (src/crypto/recovery.ts),
 * `wr1.<iv>.<ciphertext>`, the wk2 shape under its own prefix so one is never stored as the other.
 */
export const RECOVERY_COPY_PATTERN = new RegExp(`^wr1\\.${exactBytes(12)}\\.${atLeastBytes(17)}$`)

/** A wrapped key the browser can read: either version. */
export const WRAPPED_KEY_PATTERN = new RegExp(`^(?:${WRAPPED_KEY_V1}|${WRAPPED_KEY_V2})$`)

/** A wrapped P-256 key is ~260 characters (138 bytes of PKCS#8); this leaves room for any browser's encoding. */
export const WRAPPED_KEY_MAX_LENGTH = 512

/**
 * A message's ciphertext envelope: `m1.<iv>.<ciphertext and tag>` (see src/crypto/messages.ts): a 12-byte IV (16
 * characters) and at least the 16-byte tag (22 characters), canonical base64url.
 */
export const ENVELOPE_PATTERN = new RegExp(`^m1\\.${exactBytes(12)}\\.${atLeastBytes(16)}$`)

/** `m1.` + 16 characters of IV + `.` */
const ENVELOPE_OVERHEAD = 3 + 16 + 1
/** AES-GCM appends a 16-byte authentication tag. */
const TAG_BYTES = 16

/**
 * The envelope's length for a message of `utf8Bytes` bytes of UTF-8: 20 + ceil((bytes + 16) * 4 / 3).
 * A character is at most 4 bytes of UTF-8, so the envelope of an n-character message is at most
 * 20 + ceil((4n + 16) * 4 / 3) characters: about 5.33 per character in the worst case (emoji only), 1.33 for ASCII.
 */
export function envelopeLength(utf8Bytes: number): number {
  return ENVELOPE_OVERHEAD + Math.ceil(((utf8Bytes + TAG_BYTES) * 4) / 3)
}

/** The longest envelope a valid message produces (10,708 characters): the server refuses longer `content`. */
export const ENVELOPE_MAX_LENGTH = envelopeLength(4 * MESSAGE_MAX_LENGTH)

// ---- attachments (envelope m2 and the encrypted blobs; src/crypto/attachments.ts, docs/security.md "Attachments")

/** Photos and videos on one message, as on a post (LIMITS.postMedia). */
export const MESSAGE_ATTACHMENTS_MAX = 4

/** What the browser accepts and names in the envelope; the server never sees which (it stores opaque bytes). */
export const ATTACHMENT_TYPES = {
  'image/jpeg': 'image',
  'image/png': 'image',
  'image/webp': 'image',
  'image/gif': 'image',
  'video/mp4': 'video',
  'video/webm': 'video',
  'video/quicktime': 'video',
} as const

export type AttachmentMime = keyof typeof ATTACHMENT_TYPES
export type AttachmentKind = (typeof ATTACHMENT_TYPES)[AttachmentMime]

const MB = 1024 * 1024
/** Largest file before encryption, by kind: the post media defaults (MAX_IMAGE_MB, MAX_VIDEO_MB). */
export const ATTACHMENT_MAX_BYTES: Readonly<Record<AttachmentKind, number>> = { image: 10 * MB, video: 50 * MB }

/**
 * An encrypted blob is `0x01 || iv (12 bytes) || ciphertext || tag (16 bytes)`: 29 bytes more than the file. The
 * server cannot tell an image from a video, so it bounds every blob by the video limit plus this.
 */
export const ATTACHMENT_BLOB_OVERHEAD = 1 + 12 + 16

/** Bounds of the numbers an attachment's metadata may carry (the envelope's size is computed from them). */
export const ATTACHMENT_DIMENSION_MAX = 100_000
export const ATTACHMENT_DURATION_MS_MAX = 24 * 60 * 60 * 1000

/**
 * The longest metadata JSON of MESSAGE_ATTACHMENTS_MAX attachments, in bytes (all ASCII), computed from a maximal
 * example rather than by hand so it cannot drift from the format: per attachment a 36-character id and a
 * 43-character key, for the file and again for its thumbnail, the longest type, and every number at its bound
 * (`size` at 2^53 - 1, as any future limit fits). 1,317 bytes for four files.
 */
export const ATTACHMENT_METADATA_MAX_BYTES = (() => {
  const id = '0'.repeat(36)
  const key = 'A'.repeat(43)
  const mime = Object.keys(ATTACHMENT_TYPES).reduce((a, b) => (b.length > a.length ? b : a))
  const one = {
    blobId: id,
    key,
    kind: 'video',
    mime,
    size: Number.MAX_SAFE_INTEGER,
    width: ATTACHMENT_DIMENSION_MAX,
    height: ATTACHMENT_DIMENSION_MAX,
    durationMs: ATTACHMENT_DURATION_MS_MAX,
    thumb: { blobId: id, key },
  }
  return JSON.stringify(Array.from({ length: MESSAGE_ATTACHMENTS_MAX }, () => one)).length
})()

/**
 * A message with attachments: `m2.<iv>.<ciphertext and tag>`, the same parts as m1; its plaintext is the
 * attachments' JSON, a newline, then the text (src/crypto/messages.ts).
 */
export const ENVELOPE_V2_PATTERN = new RegExp(`^m2\\.${exactBytes(12)}\\.${atLeastBytes(16)}$`)

/**
 * The longest m2 envelope: the text's worst case (4 bytes a character) plus the newline plus the metadata bound, 20 +
 * ceil((8,000 + 1 + 1,317 + 16) * 4 / 3) = 12,466 characters, 1,758 more than m1's 10,708.
 */
export const ENVELOPE_V2_MAX_LENGTH = envelopeLength(4 * MESSAGE_MAX_LENGTH + 1 + ATTACHMENT_METADATA_MAX_BYTES)
