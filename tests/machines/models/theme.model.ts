import type { AnyEventObject } from 'xstate'
import { themeMachine, type Theme } from '../../../src/machines/theme/theme.machine'
import type { MachineModel } from '../support/walks'

// The theme's model, starting light and starting dark: the toggle and the Appearance choices. Walked by
// tests/machines/theme.machine.test.ts and printed by `npm run paths -- theme`.

const events: AnyEventObject[] = [{ type: 'theme.toggle' }, { type: 'theme.set', theme: 'dark' }, { type: 'theme.set', theme: 'light' }]
const label = (e: AnyEventObject) => (e.type === 'theme.set' ? `set(${String(e.theme)})` : undefined)

const startingWith = (theme: Theme) => ({
  name: `starting ${theme}`,
  theme,
  options: () => ({ input: { theme }, events, label, serializeState: (s: { context: unknown }) => JSON.stringify(s.context) }),
})

export const themeModel = {
  name: 'theme',
  machine: themeMachine,
  walks: [startingWith('light'), startingWith('dark')],
} satisfies MachineModel
