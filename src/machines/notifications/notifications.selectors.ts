import type { SnapshotFrom } from 'xstate'
import type { Notification, NotificationType } from '../../api/notifications.calls'
import type { NotificationListMachine } from './notification-list.machine'
import { EXPORT_HREF, FOLLOW_REQUESTS_HREF, MY_REPORTS_HREF, notificationText } from './notifications.rules'
import { shownName } from '../lib/shown-name'

// What the Notifications screen and the badge read from their actors.

type ListSnapshot = SnapshotFrom<NotificationListMachine>

/** The unread notifications, for the Notifications badge (src/views/shell/UnreadBadge.tsx). */
export { selectUnreadNotifications } from '../lib/unread.selectors'

export const selectFilter = (s: ListSnapshot) => s.context.filter
export const selectLoading = (s: ListSnapshot) => s.hasTag('loading')
export const selectFailed = (s: ListSnapshot) => s.matches('failed')
export const selectBusy = (s: ListSnapshot) => s.hasTag('busy')
export const selectHasMore = (s: ListSnapshot) => s.matches('ready') && s.context.nextCursor !== null
/** Mark all as read shows only when something is unread. */
export const selectCanMarkAll = (s: ListSnapshot) => s.matches('ready') && s.context.unreadCount > 0
export const selectEmpty = (s: ListSnapshot) => s.matches('ready') && s.context.notifications.length === 0

/** One item as the list shows it. */
export interface NotificationRow {
  readonly id: string
  readonly type: NotificationType
  readonly read: boolean
  readonly createdAt: string
  readonly text: string
  readonly name: string
  readonly username: string
  readonly avatar: string | null
  readonly othersCount: number
  /** The post it is about (its id and text), or null for follows. */
  readonly post: { readonly id: string; readonly content: string } | null
  /** Where the item leads: the post, the follow requests list, or the sender's profile. */
  readonly href: string
}

function hrefOf(n: Notification): string {
  if (n.type === 'follow_request') return FOLLOW_REQUESTS_HREF
  if (n.type === 'report') return MY_REPORTS_HREF
  if (n.type === 'export_ready') return EXPORT_HREF
  if (n.post) return `/post/${encodeURIComponent(n.post.id)}`
  return `/profile/${encodeURIComponent(n.from.username)}`
}

export function toRow(n: Notification): NotificationRow {
  return {
    id: n.id,
    type: n.type,
    read: n.read,
    createdAt: n.createdAt,
    text: notificationText(n),
    name: shownName(n.from),
    username: n.from.username,
    avatar: n.from.avatar,
    othersCount: n.othersCount,
    post: n.post,
    href: hrefOf(n),
  }
}

export const selectRows = (s: ListSnapshot): NotificationRow[] => s.context.notifications.map(toRow)
