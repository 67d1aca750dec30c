import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { selectUser } from '../../machines/session/session.selectors'
import { useSession } from '../actors'
import { Avatar } from '../ui/Avatar'
import { shownName } from '../../machines/lib/shown-name'

/** The signed-in member: avatar or initial, display name and @username, linking to their profile. */
export function UserCard({ onNavigate }: { onNavigate?: () => void }) {
  const user = useSelector(useSession(), selectUser)
  if (!user) return null
  return (
    <Link
      href={`/profile/${encodeURIComponent(user.username)}`}
      onClick={onNavigate}
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: '3',
        p: '2',
        borderRadius: 'xl',
        minW: 0,
        _hover: { bg: 'bg.subtle' },
        _focusVisible: { outline: '2px solid', outlineColor: 'accent' },
      })}
    >
      <Avatar src={user.avatar} name={shownName(user)} size={40} />
      <span className={css({ display: 'flex', flexDirection: 'column', minW: 0, lineHeight: '1.3' })}>
        <span className={css({ fontWeight: 'bold', truncate: true })}>{shownName(user)}</span>
        <span className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })}>@{user.username}</span>
      </span>
    </Link>
  )
}
