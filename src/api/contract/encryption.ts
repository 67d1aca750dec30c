// The shapes of the end-to-end encrypted strings, shared by the SPA (src/crypto/, which makes and reads them) and the
// server (which stores and relays them without ever decrypting: it can only check their shape and size). The formats
// are described in src/crypto/README.md and docs/security.md, "In the browser".

/** Longest direct message, in characters (code points, as LIMITS.postLength). The spec names no limit; this is ours. */
export const MESSAGE_MAX_LENGTH = 2_000

/** Base64url without padding: the alphabet every binary part of these strings uses. */
const B64 = '[A-Za-z0-9_-]'

/** A member's public key: the raw uncompressed P-256 point (65 bytes) in base64url, always 87 characters. */
export const PUBLIC_KEY_PATTERN = new RegExp(`^${B64}{87}$`)

/** The password-wrapped private key: `wk1.<iterations>.<salt>.<iv>.<ciphertext>` (see src/crypto/wrap.ts). */
export const WRAPPED_KEY_PATTERN = new RegExp(`^wk1\\.[1-9][0-9]{5,7}\\.${B64}{22}\\.${B64}{16}\\.${B64}{22,}$`)

/** A wrapped P-256 key is ~260 characters (138 bytes of PKCS#8); this leaves room for any browser's encoding. */
export const WRAPPED_KEY_MAX_LENGTH = 512

/** A message's ciphertext envelope: `m1.<iv>.<ciphertext and tag>` (see src/crypto/messages.ts). */
export const ENVELOPE_PATTERN = new RegExp(`^m1\\.${B64}{16}\\.${B64}{22,}$`)

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
