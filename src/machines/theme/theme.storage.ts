import * as z from 'zod/mini'
import type { Theme } from './theme.machine'

// The theme choice under `theme-storage`, in the shape earlier versions wrote ({ context: { theme }, version }), so a
// member's saved choice survives the update. index.html reads the same key before the first paint.

export const THEME_STORAGE_KEY = 'theme-storage'

const storedTheme = z.object({
  context: z.object({ theme: z.enum(['light', 'dark']) }),
  version: z.union([z.string(), z.number()]),
})

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
    const parsed = storedTheme.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data.context.theme : 'light'
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
