import type { IconName } from '../ui/Icon'

// The shell's navigation, in its order (docs/product.md, "App shell"); the phone's bottom bar shows the first five.
// Lists, Bookmarks and Analytics live in Settings for now, reached with ?tab=.

export interface NavItem {
  label: string
  href: string
  icon: IconName
  adminOnly?: boolean
}

export function navItems(username: string, isAdmin: boolean): NavItem[] {
  const items: NavItem[] = [
    { label: 'Home', href: '/', icon: 'home' },
    { label: 'Explore', href: '/explore', icon: 'compass' },
    { label: 'Search', href: '/search', icon: 'search' },
    { label: 'Messages', href: '/messages', icon: 'messages' },
    { label: 'Notifications', href: '/notifications', icon: 'bell' },
    { label: 'Lists', href: '/settings?tab=lists', icon: 'list' },
    { label: 'Bookmarks', href: '/settings?tab=bookmarks', icon: 'bookmark' },
    { label: 'Analytics', href: '/settings?tab=analytics', icon: 'chart' },
    { label: 'Profile', href: `/profile/${encodeURIComponent(username)}`, icon: 'user' },
    { label: 'Settings', href: '/settings', icon: 'settings' },
    { label: 'Admin', href: '/admin', icon: 'shield', adminOnly: true },
  ]
  return items.filter((item) => !item.adminOnly || isAdmin)
}

export const BOTTOM_BAR_SIZE = 5

export interface QuickAction {
  label: string
  href: string
  icon: IconName
}

export const quickActions: QuickAction[] = [
  { label: 'Manage Lists', href: '/settings?tab=lists', icon: 'list' },
  { label: 'View Bookmarks', href: '/settings?tab=bookmarks', icon: 'bookmark' },
  { label: 'Drafts & Scheduled', href: '/drafts', icon: 'calendar' },
  { label: 'Analytics', href: '/settings?tab=analytics', icon: 'chart' },
  { label: 'Mute Settings', href: '/settings?tab=mutes', icon: 'mute' },
  { label: 'Reports', href: '/settings?tab=reports', icon: 'flag' },
]

/** Whether `href` is the page shown at `path` + `search` (query links match their tab; /settings matches the rest). */
export function isCurrent(href: string, path: string, search: string): boolean {
  const [hrefPath = '', hrefQuery] = href.split('?')
  const tab = new URLSearchParams(search).get('tab')
  const hrefTab = hrefQuery ? new URLSearchParams(hrefQuery).get('tab') : null
  // A list's own page belongs to Lists.
  if (hrefTab === 'lists' && path.startsWith('/lists/')) return true
  if (hrefQuery) return path === hrefPath && tab === hrefTab
  if (hrefPath === '/') return path === '/'
  if (hrefPath === '/settings') return path === '/settings' && !['lists', 'bookmarks', 'analytics'].includes(tab ?? '')
  return path === hrefPath || path.startsWith(`${hrefPath}/`)
}
