import type { Post } from '../../api/posts.calls'

// Quote posts as the member sees them (docs/product.md, "Quotes"): who may quote, who may detach, and the words.

export const QUOTE_UNAVAILABLE = 'This post is unavailable'
export const QUOTE_DETACHED = 'Quote detached'
export const DETACH_FAILED = 'Could not detach the quote'
export const ONLY_PUBLIC_QUOTES = 'Only public posts can be quoted'

/** Only a public post can be quoted (the server checks the rest: blocks, private accounts). */
export const canBeQuoted = (post: Pick<Post, 'visibility'>) => post.visibility === 'public'

/** The viewer may detach their own post from a quote that still shows it. */
export const canDetach = (post: Pick<Post, 'quote'>, viewerId: string | null) =>
  viewerId !== null && post.quote?.post?.author.id === viewerId

/** The post page's link to a post's quotes: '1 quote', '12 quotes'; null when none. */
export function quotesLinkText(count: number | undefined): string | null {
  if (!count || count <= 0) return null
  return `${count} ${count === 1 ? 'quote' : 'quotes'}`
}
