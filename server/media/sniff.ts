import type { MediaKind } from '../db/schema-posts'

/**
 * What a file is, decided by its first bytes only: the name and the declared Content-Type are the member's claims
 * and are ignored. Anything not recognised here (SVG, HTML, HEIC, QuickTime, a text file named .jpg...) is refused.
 */
export interface Sniffed {
  kind: MediaKind
  format: 'jpeg' | 'png' | 'webp' | 'gif' | 'mp4' | 'webm'
  mime: string
}

/** Bytes needed to recognise every accepted format (WebM's DocType sits within the first few dozen). */
export const SNIFF_BYTES = 64

// ISO base media brands that are MP4 video. QuickTime ('qt  '), HEIF/HEIC and AVIF images share the `ftyp` box and
// must not pass as video/mp4.
const mp4Brands = new Set([
  'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9',
  'mp41', 'mp42', 'mp71', 'avc1', 'dash', 'M4V ', 'M4VH', 'M4VP', 'MSNV', 'mmp4',
])

const startsWith = (head: Buffer, bytes: readonly number[], offset = 0) =>
  head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b)

const ascii = (head: Buffer, start: number, end: number) => head.subarray(start, end).toString('latin1')

export function sniff(head: Buffer): Sniffed | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { kind: 'image', format: 'jpeg', mime: 'image/jpeg' }
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { kind: 'image', format: 'png', mime: 'image/png' }
  }
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') {
    return { kind: 'image', format: 'gif', mime: 'image/gif' }
  }
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') {
    return { kind: 'image', format: 'webp', mime: 'image/webp' }
  }
  if (ascii(head, 4, 8) === 'ftyp' && mp4Brands.has(ascii(head, 8, 12))) {
    return { kind: 'video', format: 'mp4', mime: 'video/mp4' }
  }
  // EBML magic, then the DocType must say webm (plain Matroska is not something browsers promise to play).
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3]) && head.subarray(0, SNIFF_BYTES).includes('webm', 4, 'latin1')) {
    return { kind: 'video', format: 'webm', mime: 'video/webm' }
  }
  return undefined
}
