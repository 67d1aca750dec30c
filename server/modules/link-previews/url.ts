/** Longest URL the server will read a preview for; longer links stay plain links. */
export const MAX_PREVIEW_URL_LENGTH = 2048

/**
 * The form a link is cached under: http(s) only, no fragment (the page is the same), scheme and host lowercased and
 * default ports dropped (WHATWG URL does both). Anything else answers null: no preview.
 */
export function normalizeLinkUrl(href: string): string | null {
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  // Credentials in a link are not the server's to send.
  if (url.username || url.password) return null
  url.hash = ''
  const normalized = url.toString()
  return normalized.length > MAX_PREVIEW_URL_LENGTH ? null : normalized
}
