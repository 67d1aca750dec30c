import type { AnyEventObject } from 'xstate'
import { settingsPageMachine } from '../../../src/machines/settings-page/settings-page.machine'
import type { MachineModel } from '../support/walks'
import { postsStandIn } from './bookmarks.model'

// The Settings page's model: arriving with each `?tab=` (or none), changing the address, opening a section's dialog
// with its button and closing it. Walked by tests/machines/settings-page.test.ts and printed by
// `npm run paths -- settings-page`.

const events: AnyEventObject[] = [
  { type: 'settings.tab', tab: 'lists' },
  { type: 'settings.tab', tab: 'bookmarks' },
  { type: 'settings.tab', tab: 'reports' },
  { type: 'settings.tab', tab: 'analytics' },
  { type: 'settings.tab', tab: 'mutes' },
  { type: 'settings.tab', tab: 'nonsense' },
  { type: 'settings.dialog.open', dialog: 'lists' },
  { type: 'settings.dialog.open', dialog: 'bookmarks' },
  { type: 'settings.dialog.open', dialog: 'reports' },
  { type: 'settings.dialog.open', dialog: 'analytics' },
  { type: 'settings.dialog.close' },
]

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'settings.tab') return `settings.tab(${event.tab as string})`
  if (event.type === 'settings.dialog.open') return `settings.dialog.open(${event.dialog as string})`
  return undefined
}

export const ARRIVALS = [null, 'profile', 'lists', 'bookmarks', 'mutes', 'reports', 'analytics', 'security'] as const

export const settingsPageModel = {
  name: 'settings-page',
  machine: settingsPageMachine,
  walks: ARRIVALS.map((tab) => ({
    name: `arriving at ?tab=${tab ?? ''}`,
    input: { tab },
    options: () => ({
      input: { tab, posts: postsStandIn() as never },
      events,
      label,
      serializeState: (s: { value: unknown; context: unknown }) =>
        JSON.stringify({ value: s.value, section: (s.context as { section: string }).section }),
      edgesOnly: 'the section and the open dialog follow every ?tab= change: every order of tabs and dialogs is its own state',
    }),
  })),
} satisfies MachineModel
