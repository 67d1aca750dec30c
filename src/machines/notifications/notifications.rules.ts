import type { Notification, NotificationPreferences, NotificationType } from '../../api/notifications.calls'
import { LIMITS } from '../../api/contract/limits'
import { REPORT_STATUS_LABEL } from '../reports/reports.rules'
import { shownName } from '../lib/shown-name'

// What the Notifications screen says and how its list changes (docs/product.md, "Notifications"), as pure functions
// the machines, the selectors and the rules tests share.

export const ALL_READ = 'All notifications marked as read'
export const EMPTY_TITLE = 'No notifications yet'
export const EMPTY_TEXT = "When someone interacts with your posts, you'll see it here"

/** The action each kind of notification names, after the sender (Mastodon's wording). */
export const ACTION_TEXT: Readonly<Record<NotificationType, string>> = {
  like: 'liked your post',
  repost: 'reposted your post',
  reply: 'replied to your post',
  mention: 'mentioned you',
  follow: 'followed you',
  follow_request: 'requested to follow you',
  follow_accepted: 'accepted your follow request',
  report: 'reviewed your report',
  export_ready: 'Your data is ready to download',
  quote: 'quoted your post',
  poll_closed: 'A poll you created has ended',
}

/** Kinds about the member's own account or post, which name nobody (the whole line leads to what it is about). */
export const OWN_NEWS: ReadonlyArray<NotificationType> = ['export_ready', 'poll_closed']

export const isOwnNews = (type: NotificationType): boolean => OWN_NEWS.includes(type)

/** 'Ana', 'Ana and 1 other', 'Ana and 19 others': who did it, grouped (othersCount). */
export function actors(name: string, othersCount: number): string {
  const others = Math.max(0, Math.floor(othersCount))
  if (others === 0) return name
  return `${name} and ${others} ${others === 1 ? 'other' : 'others'}`
}

/** The whole line, e.g. 'Ana and 19 others liked your post'. */
export function notificationText(n: Pick<Notification, 'type' | 'othersCount' | 'from' | 'report'>): string {
  // News about the member's own account names nobody.
  if (isOwnNews(n.type)) return ACTION_TEXT[n.type]
  const line = `${actors(shownName(n.from), n.othersCount)} ${ACTION_TEXT[n.type]}`
  return n.type === 'report' && n.report ? `${line}: ${REPORT_STATUS_LABEL[n.report.status]}` : line
}

/** Where a report notification leads: the member's own reports in Settings -> Reports. */
export const MY_REPORTS_HREF = '/settings?tab=reports'

/** Where an export-ready notification leads: the export row in Settings -> Account. */
export const EXPORT_HREF = '/settings?tab=account'

/** Where a follow request notification leads: the follow requests list in Settings -> Privacy & Safety. */
export const FOLLOW_REQUESTS_HREF = '/settings?tab=privacy'

/** The item marked read, the rest as they were. */
export function markRead(list: ReadonlyArray<Notification>, id: string): Notification[] {
  return list.map((n) => (n.id === id && !n.read ? { ...n, read: true } : n))
}

export function markAllRead(list: ReadonlyArray<Notification>): Notification[] {
  return list.map((n) => (n.read ? n : { ...n, read: true }))
}

/** A next page after the rows shown, without an item twice (a new notification shifts the pages). */
export function appendPage(list: ReadonlyArray<Notification>, page: ReadonlyArray<Notification>): Notification[] {
  const seen = new Set(list.map((n) => n.id))
  return [...list, ...page.filter((n) => !seen.has(n.id))]
}

/**
 * One fewer unread, never below none. At the cap the true count is unknown (100 means "100 or more"), so it stays:
 * the next count from the server says how many are left.
 */
export const oneFewer = (count: number): number =>
  count >= LIMITS.unreadCountCap ? count : Math.max(0, count - 1)

/** The settings panel's toggles, in their order, with their labels. */
export const PREFERENCE_TOGGLES: ReadonlyArray<{ key: keyof NotificationPreferences; label: string }> = [
  { key: 'like', label: 'Likes' },
  { key: 'repost', label: 'Reposts' },
  { key: 'reply', label: 'Replies' },
  { key: 'mention', label: 'Mentions' },
  { key: 'follow', label: 'New followers and follow requests' },
  { key: 'quote', label: 'Quotes' },
]

export function samePreferences(a: NotificationPreferences | null, b: NotificationPreferences | null): boolean {
  if (a === null || b === null) return a === b
  return PREFERENCE_TOGGLES.every(({ key }) => a[key] === b[key])
}

/** Only the kinds that changed, for the PATCH. */
export function changedPreferences(saved: NotificationPreferences, draft: NotificationPreferences): Partial<NotificationPreferences> {
  return Object.fromEntries(PREFERENCE_TOGGLES.filter(({ key }) => saved[key] !== draft[key]).map(({ key }) => [key, draft[key]]))
}
