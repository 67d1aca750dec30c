import { randomBytes } from 'node:crypto'

/**
 * A fresh storage key: 128 random bits (the URL is the only thing guarding a file of a followers-only post), fanned
 * out over 256 directories so no directory grows to millions of entries.
 */
export function newMediaKey(area: 'posts' | 'avatars' | 'banners' | 'attachments' | 'previews', suffix: string, extension: string): string {
  const name = randomBytes(16).toString('hex')
  return `${area}/${name.slice(0, 2)}/${name}${suffix}.${extension}`
}
