import { sectionFor, type SectionId } from '../../machines/settings-page/settings-page.rules'
import type { IconName } from '../ui/Icon'

// Settings sections in their order (docs/product.md, "Settings"). The `tab` query parameter names the open one;
// every section has an id, so every section has a shareable URL.

export interface SettingsSection {
  id: SectionId
  label: string
  icon: IconName
  description: string
}

export const settingsSections: ReadonlyArray<SettingsSection> = [
  { id: 'profile', label: 'Profile', icon: 'user', description: 'Your display name, bio and whether your account is private.' },
  { id: 'privacy', label: 'Privacy & Safety', icon: 'eye', description: 'Sensitive content, who can message or mention you, and follow requests.' },
  { id: 'notifications', label: 'Notifications', icon: 'bell', description: 'Choose what you hear about.' },
  { id: 'appearance', label: 'Appearance', icon: 'palette', description: 'Light or dark, on every page.' },
  { id: 'lists', label: 'Lists', icon: 'list', description: 'Create lists of people to follow as a group.' },
  { id: 'bookmarks', label: 'Bookmarks', icon: 'bookmark', description: 'Saved posts and your collections.' },
  { id: 'mutes', label: 'Mutes', icon: 'mute', description: 'Hide users, keywords and domains from your feeds.' },
  { id: 'blocked', label: 'Blocked Accounts', icon: 'block', description: 'Blocked users, keywords and domains.' },
  { id: 'reports', label: 'Reports', icon: 'flag', description: 'Reports you filed and their review status.' },
  { id: 'analytics', label: 'Analytics', icon: 'chart', description: 'How your posts are doing over time.' },
  { id: 'security', label: 'Security', icon: 'lock', description: 'Password, two-factor authentication and sessions.' },
  { id: 'account', label: 'Account', icon: 'user', description: 'Your email address, a copy of your data, and deleting your account.' },
]

export function findSection(id: string | null): SettingsSection {
  const wanted = sectionFor(id)
  return settingsSections.find((section) => section.id === wanted) ?? (settingsSections[0] as SettingsSection)
}
