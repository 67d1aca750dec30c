import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { selectBadge } from '../../machines/notifications/notifications.selectors'
import { useNotifications } from '../actors'

// The unread count on Notifications in the sidebar and the bottom bar (docs/product.md, "Notifications"): none at 0,
// '99+' past 99. The number is for the eye; screen readers hear ', 3 unread' as part of the link's name. It follows
// the notifications actor (systemId 'notifications'), which the server's push keeps current without a reload.

const pill = css({
  minW: '5',
  h: '5',
  px: '1.5',
  display: 'inline-grid',
  placeItems: 'center',
  borderRadius: 'full',
  bg: 'accent',
  color: 'accent.fg',
  fontSize: '11px',
  fontWeight: 'bold',
  lineHeight: '1',
  fontVariantNumeric: 'tabular-nums',
  boxShadow: '0 0 0 2px token(colors.bg.surface)',
})

/** `inline` sits after the label (sidebar); `corner` on the icon's top right (bottom bar; the link is `relative`). */
export function NotificationsBadge({ placement = 'inline' }: { placement?: 'inline' | 'corner' }) {
  const badge = useSelector(useNotifications(), selectBadge)
  if (badge === null) return null
  return (
    <>
      <span
        aria-hidden="true"
        data-badge="notifications"
        className={cx(
          pill,
          placement === 'corner'
            ? css({ position: 'absolute', top: '1.5', left: 'calc(50% + 4px)' })
            : css({ ml: 'auto' }),
        )}
      >
        {badge}
      </span>
      <span className={css({ srOnly: true })}>, {badge} unread</span>
    </>
  )
}

/** The badge a navigation entry carries, if any. */
export function NavBadge({ href, placement }: { href: string; placement?: 'inline' | 'corner' }) {
  return href === '/notifications' ? <NotificationsBadge placement={placement} /> : null
}
