import { createStore } from '@xstate/store'
import { persist, type StateStorage } from '@xstate/store/persist'
import * as z from 'zod/mini'

// Light or dark (default light; docs/product.md, "Appearance"), kept under `theme-storage`. The store only holds the
// choice; src/main.tsx subscribes and puts the class on <html> (and index.html applies it before first paint).

export type Theme = 'light' | 'dark'

export const THEME_STORAGE_KEY = 'theme-storage'

const persistedTheme = z.object({
  context: z.object({ theme: z.enum(['light', 'dark']) }),
  version: z.union([z.string(), z.number()]),
})

/** `localStorage` when the browser lets us have it; otherwise the choice lasts for the tab. */
function defaultStorage(): StateStorage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

const memoryStorage = (): StateStorage => {
  const values = new Map<string, string>()
  return {
    getItem: (name) => values.get(name) ?? null,
    setItem: (name, value) => void values.set(name, value),
    removeItem: (name) => void values.delete(name),
  }
}

export function createThemeStore(storage: StateStorage | undefined = defaultStorage()) {
  return createStore({
    context: { theme: 'light' as Theme },
    on: {
      'theme.toggle': (context) => ({ theme: context.theme === 'light' ? ('dark' as const) : ('light' as const) }),
      'theme.set': (_context, event: { theme: Theme }) => ({ theme: event.theme }),
    },
  }).with(
    persist({
      name: THEME_STORAGE_KEY,
      storage: storage ?? memoryStorage(),
      // A bad stored value throws here; persist reports it and keeps the default (light).
      deserialize: (raw) => persistedTheme.parse(JSON.parse(raw)),
      onError: () => {},
    }),
  )
}

export type ThemeStore = ReturnType<typeof createThemeStore>

export const themeStore: ThemeStore = createThemeStore()
