// What sharing says and decides (docs/product.md, "Post card", Share).

export const LINK_COPIED = 'Link copied'
export const COPY_FAILED = "Couldn't copy the link: your browser did not allow the clipboard"

/** A post's page, the link Share hands on. */
export const postPath = (postId: string) => `/post/${encodeURIComponent(postId)}`

/**
 * The member closed the share sheet without sharing (the Web Share API rejects with an AbortError): nothing more to
 * do. Any other refusal (not allowed here, a failure of the sheet) falls back to copying the link.
 */
export function isCancelled(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError'
}
