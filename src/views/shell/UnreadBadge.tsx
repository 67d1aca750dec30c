import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { selectUnreadCount } from '../../machines/conversations/conversations.selectors'
import { useConversations } from '../actors'

// The unread conversations on Messages (muted ones do not count), for the sidebar, the phone menu and the bottom bar.

/** How many conversations have unread messages. */
export function useUnreadConversations(): number {
  return useSelector(useConversations(), selectUnreadCount)
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
      {count > 99 ? '99+' : count}
    </span>
  )
}

/** The link's accessible name with the count: 'Messages, 2 unread'. */
export const withUnread = (label: string, count: number) => (count > 0 ? `${label}, ${count} unread` : label)
