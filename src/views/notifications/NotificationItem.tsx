import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import type { NotificationType } from '../../api/notifications.calls'
import type { NotificationRow } from '../../machines/notifications/notifications.selectors'
import { useMinuteClock } from '../post/clock'
import { fullDate, timeAgo } from '../post/format'
import { Avatar } from '../ui/Avatar'
import { isOwnNews } from '../../machines/notifications/notifications.rules'
import { NotificationIcon } from './icons'

// One notification: the type icon, the sender's avatar (or initial) and name linking to their profile, what they did
// ('and 19 others' when grouped), the post's first two lines linking to it, the time, and a dot while unread. Any
// click on an unread item (a link in it, or the item itself) marks it read.

const TONE: Readonly<Record<NotificationType, string>> = {
  like: css({ color: 'danger.text' }),
  repost: css({ color: 'success.text' }),
  reply: css({ color: 'accent.text' }),
  mention: css({ color: 'accent.text' }),
  follow: css({ color: 'accent.text' }),
  follow_request: css({ color: 'accent.text' }),
  follow_accepted: css({ color: 'success.text' }),
  report: css({ color: 'accent.text' }),
  export_ready: css({ color: 'success.text' }),
  quote: css({ color: 'accent.text' }),
  poll_closed: css({ color: 'accent.text' }),
}

const nameLink = css({ fontWeight: 'bold', color: 'fg.default', _hover: { textDecoration: 'underline' }, _focusVisible: { outline: '2px solid', outlineColor: 'accent', borderRadius: 'sm' } })

export function NotificationItem({ row, onOpen }: { row: NotificationRow; onOpen: () => void }) {
  const now = useMinuteClock()
  const profile = `/profile/${encodeURIComponent(row.username)}`
  const rest = row.text.slice(row.name.length)
  // News about the member's own account or post (an export is ready, a poll ended): no sender to show, the whole
  // line leads to it.
  const own = isOwnNews(row.type)
  return (
    <li
      onClick={row.read ? undefined : onOpen}
      data-unread={row.read ? undefined : 'true'}
      className={css({
        position: 'relative',
        display: 'flex',
        gap: '3',
        px: '4',
        py: '3.5',
        borderBottomWidth: '1px',
        borderColor: 'border',
        cursor: row.read ? 'default' : 'pointer',
        transition: 'background-color 120ms',
        '&[data-unread=true]': { bg: 'color-mix(in srgb, token(colors.accent.subtle) 55%, transparent)' },
        _hover: { bg: 'bg.subtle' },
      })}
    >
      <span aria-hidden="true" className={cx(css({ w: '8', pt: '1', display: 'flex', justifyContent: 'flex-end', flexShrink: 0 }), TONE[row.type])}>
        <NotificationIcon name={row.type} size={24} fill={row.type === 'like' ? 'currentColor' : 'none'} />
      </span>
      <div className={css({ flex: 1, minW: 0, display: 'flex', flexDirection: 'column', gap: '1.5' })}>
        {own ? null : (
          <Link href={profile} tabIndex={-1} aria-hidden="true" className={css({ alignSelf: 'flex-start' })}>
            <Avatar src={row.avatar} name={row.name} size={36} />
          </Link>
        )}
        <p className={css({ lineHeight: '1.4', color: 'fg.default', pr: '5', overflowWrap: 'anywhere' })}>
          {own ? (
            <Link href={row.href} className={nameLink}>
              {row.text}
            </Link>
          ) : (
            <Link href={profile} className={nameLink}>
              {row.name}
            </Link>
          )}
          {own ? null : row.type === 'follow_request' || row.type === 'report' ? (
            <Link href={row.href} className={css({ _hover: { textDecoration: 'underline' } })}>
              {rest}
            </Link>
          ) : (
            rest
          )}
          <span className={css({ color: 'fg.muted' })}>
            {' · '}
            <time dateTime={row.createdAt} title={fullDate(row.createdAt)}>
              {timeAgo(row.createdAt, now)}
            </time>
          </span>
        </p>
        {row.post ? (
          <Link
            href={`/post/${encodeURIComponent(row.post.id)}`}
            className={css({
              color: 'fg.muted',
              fontSize: 'sm',
              lineHeight: '1.45',
              lineClamp: 2,
              overflowWrap: 'anywhere',
              _hover: { color: 'fg.default' },
              _focusVisible: { outline: '2px solid', outlineColor: 'accent', borderRadius: 'sm' },
            })}
          >
            {row.post.content}
          </Link>
        ) : null}
      </div>
      {row.read ? null : (
        <span
          role="img"
          aria-label="Unread"
          data-dot="unread"
          className={css({ position: 'absolute', top: '5', right: '4', w: '2.5', h: '2.5', borderRadius: 'full', bg: 'accent' })}
        />
      )}
    </li>
  )
}
