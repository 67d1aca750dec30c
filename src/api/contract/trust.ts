// The shape of a sealed trust record (src/crypto/trust-record.ts), shared by the SPA, which seals and opens it, and the
// server, which stores it without being able to read it and so checks only its shape and size.

/** Longest record the server keeps: a sealed record of a P-256 key, a flag and a time is about 220 characters. */
export const TRUST_RECORD_MAX_LENGTH = 512

/**
 * `tr1.<iv>.<ciphertext and tag>`: a 12-byte IV (16 characters of base64url) and at least the 16-byte tag (22
 * characters). The browser decodes strictly; the server needs only to refuse what cannot be a record.
 */
export const TRUST_RECORD_PATTERN = /^tr1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22,}$/

export const TRUST_RECORD_INVALID = 'record must be a sealed trust record (tr1.<iv>.<ciphertext>) of at most 512 characters'
