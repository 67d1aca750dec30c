// The Settings page's sections and dialogs (docs/product.md, "Settings"): which sections
// exist, which `?tab=` names which, and which sections open a dialog of the page's own. Labels, icons and the
// descriptions are the view's (src/views/settings/sections.ts).

export const SECTION_IDS = [
  'profile',
  'privacy',
  'notifications',
  'appearance',
  'lists',
  'bookmarks',
  'mutes',
  'blocked',
  'reports',
  'analytics',
  'security',
  'account',
] as const
export type SectionId = (typeof SECTION_IDS)[number]

/**
 * The dialogs this page opens itself: `?tab=` with one of these selects the section and opens its dialog at once, and
 * the section's button opens it again. (Mutes has its own actor, which opens its dialog the same way; the password
 * dialog is the change-password actor's.)
 */
export const DIALOG_IDS = ['lists', 'bookmarks', 'reports', 'analytics'] as const
export type DialogId = (typeof DIALOG_IDS)[number]

/** The section a `?tab=` value names; anything else (or none) is Profile. */
export function sectionFor(tab: string | null | undefined): SectionId {
  return (SECTION_IDS as ReadonlyArray<string>).includes(tab ?? '') ? (tab as SectionId) : 'profile'
}

/** The dialog a section opens, if it has one of the page's own. */
export function dialogOf(section: SectionId): DialogId | null {
  return (DIALOG_IDS as ReadonlyArray<string>).includes(section) ? (section as DialogId) : null
}
