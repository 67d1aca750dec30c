import { assign, setup, type ActorRefFrom } from 'xstate'
import { type Theme, writeStoredTheme } from './theme.storage'

// Light or dark (default light), one actor for the app (systemId 'theme'). It holds the choice and saves every change
// under `theme-storage`; src/main.tsx puts the matching class on <html> so the whole page switches at once.

export type { Theme } from './theme.storage'

export type ThemeEvent = { type: 'theme.toggle' } | { type: 'theme.set'; theme: Theme }

export interface ThemeInput {
  /** What was saved (src/machines/theme/theme.storage.ts); light when nothing was. */
  theme: Theme
}

export const themeMachine = setup({
  types: {
    context: {} as { theme: Theme },
    events: {} as ThemeEvent,
    input: {} as ThemeInput,
  },
  actions: {
    choose: assign((_, theme: Theme) => ({ theme })),
    save: ({ context }) => writeStoredTheme(context.theme),
  },
  guards: {
    /** Choosing the theme already shown changes nothing (and writes nothing). */
    isChange: ({ context }, theme: Theme) => context.theme !== theme,
  },
}).createMachine({
  id: 'theme',
  context: ({ input }) => ({ theme: input.theme }),
  initial: 'active',
  states: {
    active: {
      on: {
        'theme.toggle': {
          actions: [{ type: 'choose', params: ({ context }) => (context.theme === 'light' ? 'dark' : 'light') }, 'save'],
        },
        'theme.set': {
          guard: { type: 'isChange', params: ({ event }) => event.theme },
          actions: [{ type: 'choose', params: ({ event }) => event.theme }, 'save'],
        },
      },
    },
  },
})

export type ThemeMachine = typeof themeMachine
export type ThemeRef = ActorRefFrom<ThemeMachine>
