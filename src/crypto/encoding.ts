// Byte <-> text helpers shared by the crypto modules. Hand-written because the browser has no Buffer and
// Uint8Array.fromBase64 is not in Node 20 nor in every browser we support.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const VALUE = new Map<string, number>([...ALPHABET].map((char, index) => [char, index]))

/** Base64url without padding (RFC 4648 section 5), the encoding of every binary part of our strings. */
export function toBase64url(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0
    const b = bytes[i + 1] ?? 0
    const c = bytes[i + 2] ?? 0
    const chunk = (a << 16) | (b << 8) | c
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 4) / 3))
    for (let j = 0; j < chars; j++) out += ALPHABET[(chunk >> (18 - 6 * j)) & 63]
  }
  return out
}

/**
 * Strict decoding: undefined for anything but canonical unpadded base64url (no padding, no whitespace, no other
 * alphabet, no stray bits in the last character), so one byte string has exactly one accepted text.
 */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 === 1) return undefined
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4))
  let bits = 0
  let buffer = 0
  let at = 0
  for (const char of text) {
    const value = VALUE.get(char)
    if (value === undefined) return undefined
    buffer = (buffer << 6) | value
    bits += 6
    if (bits >= 8) {
      bits -= 8
      bytes[at++] = (buffer >> bits) & 0xff
    }
    buffer &= (1 << bits) - 1
  }
  // Leftover bits must be zero, else two texts would decode to the same bytes.
  if (buffer !== 0) return undefined
  return bytes
}

const encoder = new TextEncoder()
// fatal: a ciphertext that authenticates always holds the UTF-8 we encrypted; anything else is a bug to surface.
const decoder = new TextDecoder('utf-8', { fatal: true })

export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text)
}

export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes)
}

/** Concatenation, for building HKDF info and hash inputs. */
export function concat(...parts: ReadonlyArray<Uint8Array>): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** Lexicographic byte order: the canonical order of two public keys, the same on both members' sides. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0)
    if (diff !== 0) return diff
  }
  return a.length - b.length
}

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return globalThis.crypto.getRandomValues(new Uint8Array(length))
}
