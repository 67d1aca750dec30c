import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { selectUnreadCount, selectUnreadNotifications } from '../../machines/lib/unread.selectors'
import { useConversations, useNotifications } from '../actors'

// The unread counts on navigation entries, for the sidebar, the phone menu and the bottom bar: conversations with
// unread messages on Messages (muted ones do not count), unread notifications on Notifications.

/** The unread count of a navigation entry, by its href (0 for entries without one). */
export function useNavUnread(): (href: string) => number {
  // 0 until the conversation list has started (a few seconds after the first screen).
  const messages = useSelector(useConversations(), (s) => (s ? selectUnreadCount(s) : 0))
  const notifications = useSelector(useNotifications(), selectUnreadNotifications)
  return (href) => (href === '/messages' ? messages : href === '/notifications' ? notifications : 0)
}

/** The count as a small badge; hidden from screen readers, since the link's name says it ('Messages, 2 unread'). */
export function UnreadBadge({ count, className }: { count: number; className?: string }) {
  if (count === 0) return null
  return (
    <span
      aria-hidden="true"
      className={`${css({
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
        lineHeight: 1,
      })} ${className ?? ''}`}
    >
      {/* A space before the count, invisible in the grid, keeps 'Messages 2' two words for checks that compare the
          link's visible text with its name ('Messages, 2 unread'). */}
      {' '}
      {count > 99 ? '99+' : count}
    </span>
  )
}

/** The link's accessible name with the count: 'Messages, 2 unread'. */
export const withUnread = (label: string, count: number) =>
  count > 99 ? `${label}, more than 99 unread` : count > 0 ? `${label}, ${count} unread` : label
