import type { SqlExecutor } from '../../db/rows'
import { Forbidden, Invalid, NotFound } from '../../lib/domain-errors'
import { POST_NOT_FOUND } from '../visibility/visibility'
import { findVisiblePost, type PostRef } from './queries'
import type { QuoteToDetach } from './quote-queries'

/**
 * The rules of quote posts (docs/product.md, "Quotes"). A quote is a post of its own that shows the quoted post's card
 * inside it; only a public post can be quoted, by a member who may see it (a block either way, or a private account
 * they do not follow, hides it: answered as a post that does not exist). Who sees the nested card is decided per
 * viewer when the quote is read (cache/post-caches.ts); the quoted post's author may detach their post from a quote
 * for good.
 */
export const ONLY_PUBLIC_QUOTES = 'Only public posts can be quoted'
export const ONLY_QUOTED_AUTHOR_DETACHES = "Only the quoted post's author can detach it"
export const NOT_A_QUOTE = 'This post does not quote another'

/** The post a new quote may quote, or the error that refuses it. */
export async function quotablePost(db: SqlExecutor, authorId: string, quoteOf: string): Promise<PostRef> {
  const quoted = await findVisiblePost(db, authorId, quoteOf)
  if (!quoted) throw new NotFound(POST_NOT_FOUND)
  if (quoted.visibility !== 'public') throw new Forbidden(ONLY_PUBLIC_QUOTES)
  return quoted
}

/**
 * Whether the viewer may detach this quote: only the quoted post's author, whether or not they may see the quote
 * (their own post is what it shows). Anyone else learns nothing about a quote they may not see.
 */
export function checkDetach(viewerId: string, quote: QuoteToDetach | undefined): QuoteToDetach {
  if (!quote) throw new NotFound(POST_NOT_FOUND)
  if (quote.quoted_author_id === viewerId) return quote
  if (!quote.visible) throw new NotFound(POST_NOT_FOUND)
  if (quote.quote_of === null) throw new Invalid(NOT_A_QUOTE)
  throw new Forbidden(ONLY_QUOTED_AUTHOR_DETACHES)
}
