import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { selectQuoteOf } from '../../machines/composer/composer.quote'
import type { ComposerRef } from '../../machines/composer/composer.machine'
import { selectPost } from '../../machines/posts/posts.selectors'
import { usePosts } from '../actors'
import { Icon } from '../ui/Icon'
import { QuotedCard } from '../post/QuotedCard'

/**
 * The post being quoted, under the composer's text: read-only, as the quote will show it, with a button that stops
 * quoting. The post comes from the post cache (the card it was quoted from put it there).
 */
export function ComposerQuote({ composer }: { composer: ComposerRef }) {
  const quoteOf = useSelector(composer, selectQuoteOf)
  const post = useSelector(usePosts(), selectPost(quoteOf ?? ''))
  const busy = useSelector(composer, (s) => s.hasTag('busy'))
  if (!quoteOf) return null
  return (
    <div className={css({ position: 'relative', ml: '13' })} aria-label="Quoted post" role="group">
      <QuotedCard post={post ?? null} linkable={false} />
      <button
        type="button"
        className={cx(button({ variant: 'ghost', size: 'icon' }), css({ position: 'absolute', top: '0.5', right: '-2.5', w: '7', h: '7', borderRadius: 'full', borderWidth: '1px', borderColor: 'border', bg: 'bg.surface', boxShadow: 'sm', _hover: { bg: 'bg.subtle' } }))}
        aria-label="Remove quote"
        title="Remove quote"
        disabled={busy}
        onClick={() => composer.send({ type: 'composer.quote.remove' })}
      >
        <Icon name="close" size={16} />
      </button>
    </div>
  )
}
