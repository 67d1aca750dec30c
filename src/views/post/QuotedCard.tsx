import { Link } from 'wouter'
import { css } from 'styled-system/css'
import type { QuotedPost } from '../../api/posts.calls'
import { shownName } from '../../machines/lib/shown-name'
import { QUOTE_UNAVAILABLE } from '../../machines/posts/quotes.rules'
import { Avatar } from '../ui/Avatar'
import { useMinuteClock } from './clock'
import { fullDate, timeAgo } from './format'

// The quoted post inside a quote (docs/product.md, "Quotes"): its author, time, text (four lines at most) and the
// first media's thumbnail; the whole card one link to the quoted post. Its text is shown as plain text: links inside
// a link are not allowed, and the quoted post's page shows it in full. When the quoted post is gone, hidden from the
// viewer or detached, the card says so instead. In the composer the same card is shown read-only (not a link).

const frame = css({
  display: 'flex',
  gap: '3',
  mt: '2.5',
  p: '3',
  borderRadius: 'xl',
  borderWidth: '1px',
  borderColor: 'border',
  bg: 'bg.surface',
  color: 'fg.default',
  textAlign: 'left',
  transitionProperty: 'background-color, border-color',
  transitionDuration: 'fast',
})

const linked = css({
  _hover: { bg: 'bg.subtle', borderColor: 'border.strong' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
})

export function QuotedCard({ post, linkable = true }: { post: QuotedPost | null; linkable?: boolean }) {
  const now = useMinuteClock()
  if (!post) {
    return (
      <p data-testid="quote-unavailable" className={css({ mt: '2.5', px: '3.5', py: '3', borderRadius: 'xl', borderWidth: '1px', borderColor: 'border', bg: 'bg.subtle', color: 'fg.muted', fontSize: 'sm' })}>
        {QUOTE_UNAVAILABLE}
      </p>
    )
  }
  const name = shownName(post.author)
  const thumb = post.media[0]
  const body = (
    <>
      <div className={css({ flex: 1, minW: 0, display: 'flex', flexDirection: 'column', gap: '1' })}>
        <span className={css({ display: 'flex', alignItems: 'center', gap: '1.5', minW: 0, fontSize: 'sm' })}>
          <Avatar src={post.author.avatar} name={name} size={20} />
          <span className={css({ fontWeight: 'bold', truncate: true })}>{name}</span>
          <span className={css({ color: 'fg.muted', truncate: true })}>@{post.author.username}</span>
          <span aria-hidden="true" className={css({ color: 'fg.muted' })}>·</span>
          <time dateTime={post.createdAt} title={fullDate(post.createdAt)} className={css({ color: 'fg.muted', flexShrink: 0 })}>
            {timeAgo(post.createdAt, now)}
          </time>
        </span>
        {post.content ? (
          <span className={css({ lineClamp: 4, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: '1.45' })}>{post.content}</span>
        ) : null}
      </div>
      {thumb && !post.sensitive ? (
        <img
          src={thumb.thumbnailUrl ?? thumb.url}
          alt={thumb.alt ?? ''}
          loading="lazy"
          className={css({ w: '16', h: '16', flexShrink: 0, borderRadius: 'lg', objectFit: 'cover', bg: 'bg.subtle' })}
        />
      ) : null}
    </>
  )
  if (!linkable) {
    return (
      <div className={frame} data-testid="quoted-card">
        {body}
      </div>
    )
  }
  return (
    <Link href={`/post/${post.id}`} className={`${frame} ${linked}`} data-testid="quoted-card">
      {body}
    </Link>
  )
}
