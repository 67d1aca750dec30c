// The composer's quote mode (docs/product.md, "Quotes"): a card's Quote opens the composer with the quoted post
// shown inside it, read-only, under the text; the post then goes out with `quoteOf`. Kept apart from the draft's
// other parts so the composer's modes stay separate: the quote is only an id, shown from the post cache.

export type ComposerQuoteEvent = { type: 'composer.quote'; postId: string } | { type: 'composer.quote.remove' }

export interface ComposerQuoteContext {
  /** The post being quoted, or null. */
  quoteOf: string | null
}

export const NO_QUOTE: ComposerQuoteContext = { quoteOf: null }

/** The post a `composer.quote` event asks to quote. */
export const quotedId = (event: ComposerQuoteEvent): string | null => (event.type === 'composer.quote' ? event.postId : null)

/** The post the composer quotes, for the form (shown read-only under the text). */
export const selectQuoteOf = (s: { context: ComposerQuoteContext }) => s.context.quoteOf
