import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import type { UserRow as Row } from '../../machines/search/search.machine'
import { FollowButton } from '../profile/FollowButton'
import { VerifiedMark } from '../profile/VerifiedMark'
import { Avatar } from '../ui/Avatar'
import { shownName } from '../../machines/lib/shown-name'

// One member in the Users tab or Who to Follow: avatar (or initial), display name, verified tick, @username, bio on
// two lines at most, and a Follow button (none on the viewer's own row). The name and avatar lead to the profile.
// `compact` leaves out the bio; `dense` also fits a narrow column (the right column beside Explore).

export function UserRow({ row, compact = false, dense = false }: { row: Row; compact?: boolean; dense?: boolean }) {
  const { user, follow } = row
  const href = `/profile/${encodeURIComponent(user.username)}`
  return (
    <li
      className={css({
        display: 'flex',
        alignItems: 'flex-start',
        gap: dense ? '2.5' : '3',
        px: dense ? '3' : '4',
        py: '3',
        borderBottomWidth: compact ? '0' : '1px',
        borderColor: 'border',
        transition: 'background-color 120ms',
        _hover: { bg: 'bg.subtle' },
      })}
    >
      <Link href={href} tabIndex={-1} aria-hidden="true" className={css({ display: 'flex', borderRadius: 'full', flexShrink: 0 })}>
        <Avatar src={user.avatar} name={shownName(user)} size={dense ? 36 : 44} />
      </Link>
      <div className={css({ flex: 1, minW: 0, lineHeight: '1.3' })}>
        <div className={css({ display: 'flex', alignItems: 'center', gap: '1', minW: 0 })}>
          <Link href={href} className={cx(css({ fontWeight: 'bold', truncate: true, _hover: { textDecoration: 'underline' } }), dense ? css({ fontSize: 'sm' }) : undefined)}>
            {shownName(user)}
          </Link>
          {user.verified ? <VerifiedMark size={16} /> : null}
        </div>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })}>@{user.username}</p>
        {user.bio && !compact ? (
          <p className={css({ fontSize: 'sm', mt: '1', lineClamp: 2, overflowWrap: 'anywhere' })}>{user.bio}</p>
        ) : null}
      </div>
      {follow ? <FollowButton actor={follow} name={user.username} size="sm" className={css({ alignSelf: 'center' })} /> : null}
    </li>
  )
}
