import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import type { Post } from '../../api/posts.calls'
import { Menu } from '../ui/Menu'
import { formatCount } from './format'
import { PostIcon } from './icons'

// The counts under a post (docs/product.md, "Post card"): replies (to the post page), reposts (a small menu: Repost or
// Undo repost, which changes at once, and Quote, which opens the composer quoting the post) and likes (a toggle that
// changes at once), bookmark (a toggle that changes at once), share (the share sheet, or the link copied) and views. Counts abbreviate at 1K and 1M.

const row = css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', maxW: '420px', mt: '1.5', ml: '-2' })

const action = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  h: '8',
  px: '2',
  borderRadius: 'full',
  fontSize: 'sm',
  color: 'fg.muted',
  cursor: 'pointer',
  transitionProperty: 'color, background-color',
  transitionDuration: 'fast',
  fontVariantNumeric: 'tabular-nums',
  _focusVisible: { outline: '2px solid', outlineColor: 'accent' },
  _disabled: { cursor: 'not-allowed', opacity: 0.5 },
  '&[aria-disabled=true]': { cursor: 'not-allowed' },
})

const tone = {
  reply: css({ _hover: { color: 'accent.text', bg: 'accent.subtle' } }),
  repost: css({
    _hover: { color: 'success.text', bg: 'success.subtle', _disabled: { color: 'fg.muted', bg: 'transparent' } },
    '&[aria-pressed=true]': { color: 'success.text' },
  }),
  like: css({ _hover: { color: 'danger.text', bg: 'danger.subtle' }, '&[aria-pressed=true]': { color: 'danger.text' } }),
  bookmark: css({ _hover: { color: 'accent.text', bg: 'accent.subtle' }, '&[aria-pressed=true]': { color: 'accent.text' } }),
  neutral: css({ _hover: { color: 'accent.text', bg: 'accent.subtle' } }),
}

const count = (n: number) => (n > 0 ? <span>{formatCount(n)}</span> : null)

/**
 * An action's accessible name, e.g. 'Unlike, 1.2K likes': it holds the count exactly as the button shows it, so
 * speech input can use the visible words (WCAG 2.5.3, label in name) and a screen reader hears what is seen.
 */
const named = (action: string, n: number, one: string, many: string) => `${action}, ${formatCount(n)} ${n === 1 ? one : many}`

export function PostActions({
  post,
  repostable,
  onLike,
  onRepost,
  onQuote,
  onBookmark,
  onShare,
}: {
  post: Post
  /** Whether the repost button works (posts.rules.ts canBeReposted, read through a selector). */
  repostable: boolean
  onLike: () => void
  onRepost: () => void
  onQuote: () => void
  onBookmark: () => void
  onShare: () => void
}) {
  return (
    <div className={row}>
      <Link
        href={`/post/${post.id}`}
        className={cx(action, tone.reply)}
        aria-label={named('Reply', post.replyCount, 'reply', 'replies')}
      >
        <PostIcon name="reply" size={18} />
        {count(post.replyCount)}
      </Link>
      {repostable ? (
        <Menu
          label="Repost options"
          items={[
            { label: post.reposted ? 'Undo repost' : 'Repost', icon: <PostIcon name="repost" size={18} />, onSelect: onRepost },
            { label: 'Quote', icon: <PostIcon name="quote" size={18} />, onSelect: onQuote },
          ]}
          trigger={() => (
            <>
              <PostIcon name="repost" size={18} />
              {count(post.repostCount)}
            </>
          )}
          triggerLabel={named(post.reposted ? 'Undo repost' : 'Repost', post.repostCount, 'repost', 'reposts')}
          triggerClassName={cx(action, tone.repost, post.reposted ? css({ color: 'success.text' }) : undefined)}
          popupClassName={css({ position: 'absolute', zIndex: 30, top: 'calc(100% + 0.25rem)', left: 0, minW: '170px' })}
        />
      ) : (
        <button
          type="button"
          className={cx(action, tone.repost)}
          aria-pressed={post.reposted}
          aria-label={named(post.reposted ? 'Undo repost' : 'Repost', post.repostCount, 'repost', 'reposts')}
          title="Only public posts can be reposted or quoted"
          disabled
        >
          <PostIcon name="repost" size={18} />
          {count(post.repostCount)}
        </button>
      )}
      <button
        type="button"
        className={cx(action, tone.like)}
        aria-pressed={post.liked}
        aria-label={named(post.liked ? 'Unlike' : 'Like', post.likeCount, 'like', 'likes')}
        onClick={onLike}
      >
        <PostIcon name="heart" size={18} fill={post.liked ? 'currentColor' : 'none'} />
        {count(post.likeCount)}
      </button>
      <button
        type="button"
        className={cx(action, tone.bookmark)}
        aria-pressed={post.bookmarked}
        aria-label={post.bookmarked ? 'Remove bookmark' : 'Bookmark'}
        title={post.bookmarked ? 'Remove bookmark' : 'Bookmark'}
        onClick={onBookmark}
      >
        <PostIcon name="bookmark" size={18} fill={post.bookmarked ? 'currentColor' : 'none'} />
      </button>
      <button type="button" className={cx(action, tone.neutral)} aria-label="Share" title="Share" onClick={onShare}>
        <PostIcon name="share" size={18} />
      </button>
      <span className={cx(action, css({ cursor: 'default' }))} aria-label={`${post.views} views`} title={`${post.views} views`} role="img">
        <PostIcon name="views" size={18} />
        {count(post.views)}
      </span>
    </div>
  )
}
