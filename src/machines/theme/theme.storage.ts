// The theme choice under `theme-storage`, in the shape earlier versions wrote ({ context: { theme }, version }), so a
// member's saved choice survives the update. index.html reads the same key before the first paint.

/** Light or dark: what the theme actor holds and what is saved. */
export type Theme = 'light' | 'dark'

export const THEME_STORAGE_KEY = 'theme-storage'

/** The saved theme if `value` has that shape (checked by hand: the first load carries no schema library). */
function storedTheme(value: unknown): Theme | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const { context, version } = value as { context?: unknown; version?: unknown }
  if (typeof version !== 'string' && typeof version !== 'number') return null
  if (typeof context !== 'object' || context === null || Array.isArray(context)) return null
  const theme = (context as { theme?: unknown }).theme
  return theme === 'light' || theme === 'dark' ? theme : null
}

/** `localStorage` when the browser lets us have it (not in node tests, not in modes that throw on access). */
function defaultStorage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

/** The saved theme; anything missing or malformed reads as the default, light. */
export function readStoredTheme(storage: Storage | undefined = defaultStorage()): Theme {
  try {
    const raw = storage?.getItem(THEME_STORAGE_KEY)
    if (!raw) return 'light'
    return storedTheme(JSON.parse(raw)) ?? 'light'
  } catch {
    return 'light'
  }
}

export function writeStoredTheme(theme: Theme, storage: Storage | undefined = defaultStorage()): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, JSON.stringify({ context: { theme }, version: 0 }))
  } catch {
    // Storage full or disabled: the choice lasts for this tab.
  }
}
