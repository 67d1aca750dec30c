import { Link } from 'wouter'
import { css } from 'styled-system/css'
import type { Post } from '../../api/posts.calls'
import { useMinuteClock } from './clock'
import { profileHref } from './content-tokens'
import { fullDate, timeAgo } from './format'
import { PostIcon } from './icons'
import { EditedMarker } from './EditedMarker'
import { shownName } from '../../machines/lib/shown-name'

// The card's first line: display name (to the profile), verified mark, @username, relative time (to the post page,
// the keyboard's way in) and '(edited)', which opens the post's edit history.

const nameLink = css({
  fontWeight: 'bold',
  color: 'fg.default',
  truncate: true,
  minW: 0,
  _hover: { textDecoration: 'underline' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', borderRadius: 'sm' },
})

const muted = css({ color: 'fg.muted', whiteSpace: 'nowrap' })

export function VerifiedMark({ size = 16 }: { size?: number }) {
  return (
    <span title="Verified" className={css({ display: 'inline-flex', color: 'accent', flexShrink: 0 })}>
      <PostIcon name="verified" size={size} aria-hidden="false" role="img" aria-label="Verified" />
    </span>
  )
}

export function PostAuthor({ post, stacked = false }: { post: Post; stacked?: boolean }) {
  const now = useMinuteClock()
  const { author } = post
  const name = shownName(author)
  const time = (
    <Link
      href={`/post/${post.id}`}
      className={css({ color: 'fg.muted', whiteSpace: 'nowrap', _hover: { textDecoration: 'underline' } })}
    >
      <time dateTime={post.createdAt} title={fullDate(post.createdAt)}>
        {timeAgo(post.createdAt, now)}
      </time>
    </Link>
  )
  return (
    <div className={css({ display: 'flex', flexDirection: stacked ? 'column' : 'row', alignItems: stacked ? 'flex-start' : 'baseline', gap: stacked ? '0' : '1.5', minW: 0, flexWrap: 'wrap', lineHeight: '1.35' })}>
      <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '1', minW: 0, maxW: 'full' })}>
        <Link href={profileHref(author.username)} className={nameLink}>
          {name}
        </Link>
        {author.verified ? <VerifiedMark /> : null}
      </span>
      <span className={css({ display: 'inline-flex', alignItems: 'baseline', gap: '1.5', minW: 0, fontSize: 'sm' })}>
        <Link href={profileHref(author.username)} className={css({ color: 'fg.muted', truncate: true, minW: 0 })}>
          @{author.username}
        </Link>
        {stacked ? null : (
          <>
            <span aria-hidden="true" className={muted}>
              ·
            </span>
            {time}
          </>
        )}
        {stacked ? null : <EditedMarker post={post} />}
      </span>
    </div>
  )
}

/** The post page's full timestamp line under the post. */
export function PostTimestamp({ post }: { post: Post }) {
  const now = useMinuteClock()
  return (
    <p className={css({ fontSize: 'sm', color: 'fg.muted', display: 'flex', gap: '1.5', flexWrap: 'wrap' })}>
      <time dateTime={post.createdAt}>{fullDate(post.createdAt)}</time>
      <span aria-hidden="true">·</span>
      <span>{timeAgo(post.createdAt, now)}</span>
      <EditedMarker post={post} />
    </p>
  )
}
