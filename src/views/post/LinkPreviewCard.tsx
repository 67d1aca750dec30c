import { css } from 'styled-system/css'
import type { LinkPreview } from '../../api/posts.calls'

// The card of a post's first link (docs/product.md, "Link previews"): the page's image, title, two lines of its
// description and its site name, the whole card one link to the page in a new tab. Everything in it is the linked
// page's own text and is shown as text. The image box has the shape the server crops to (1.91:1), so the card takes
// its final height before the image arrives.

const card = css({
  display: 'block',
  mt: '2.5',
  borderRadius: 'xl',
  overflow: 'hidden',
  borderWidth: '1px',
  borderColor: 'border',
  bg: 'bg.surface',
  color: 'fg.default',
  transitionProperty: 'background-color, border-color',
  transitionDuration: 'fast',
  _hover: { bg: 'bg.subtle', borderColor: 'border.strong' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
})

const image = css({
  display: 'block',
  w: 'full',
  aspectRatio: '800 / 418',
  objectFit: 'cover',
  bg: 'bg.subtle',
  borderBottomWidth: '1px',
  borderColor: 'border',
})

const title = css({ lineClamp: 2, overflowWrap: 'anywhere', fontSize: 'sm', fontWeight: 'semibold', lineHeight: 'snug' })
const description = css({ lineClamp: 2, overflowWrap: 'anywhere', fontSize: 'sm', color: 'fg.muted', lineHeight: 'snug' })

export function LinkPreviewCard({ preview }: { preview: LinkPreview }) {
  return (
    <a
      href={preview.url}
      target="_blank"
      rel="noopener noreferrer nofollow ugc"
      className={card}
      data-testid="link-preview"
      aria-label={`${preview.title}${preview.siteName ? ` (${preview.siteName})` : ''}, opens in a new tab`}
    >
      {preview.imageUrl ? <img src={preview.imageUrl} alt="" loading="lazy" decoding="async" width={800} height={418} className={image} /> : null}
      <span className={css({ display: 'flex', flexDirection: 'column', gap: '0.5', px: '3', py: '2.5' })}>
        {preview.siteName ? (
          <span className={css({ fontSize: 'xs', color: 'fg.muted', truncate: true })}>{preview.siteName}</span>
        ) : null}
        <span className={title}>{preview.title}</span>
        {preview.description ? (
          <span className={description}>{preview.description}</span>
        ) : null}
      </span>
    </a>
  )
}
