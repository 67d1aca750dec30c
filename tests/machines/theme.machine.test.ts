import { beforeEach, describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { themeMachine, type ThemeEvent } from '../../src/machines/theme/theme.machine'
import { readStoredTheme, THEME_STORAGE_KEY, writeStoredTheme } from '../../src/machines/theme/theme.storage'
import { installLocalStorage, MemoryStorage } from './support/memory-storage'
import { themeModel } from './models/theme.model'
import { Coverage, walkPaths } from './support/model'

// Light or dark (docs/product.md, "Appearance"): default light; the toggle and the Appearance choice change it, every
// change is saved under `theme-storage` in the shape earlier versions wrote, and a new page starts from what was saved.

let storage: MemoryStorage
beforeEach(() => {
  storage = installLocalStorage()
})

const saved = () => JSON.parse(storage.getItem(THEME_STORAGE_KEY) ?? 'null') as unknown

const coverage = new Coverage(themeMachine)

describe.each(themeModel.walks)('theme machine $name', (walk) => {
  const start = walk.theme
  const paths = walkPaths(themeModel, walk)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', (_name, path) => {
    const actor = createActor(themeMachine, { input: { theme: start }, inspect: coverage.inspector }).start()
    coverage.see(actor.getSnapshot())
    expect(saved(), 'starting writes nothing').toBeNull()
    for (const step of path.steps) {
      if (step.event.type === 'xstate.init') continue
      const before = actor.getSnapshot().context.theme
      storage.clear()
      actor.send(step.event as ThemeEvent)
      const theme = actor.getSnapshot().context.theme
      coverage.see(actor.getSnapshot())
      expect(theme).toBe(step.state.context.theme)
      // A change is saved; choosing the theme already shown writes nothing.
      expect(saved()).toEqual(theme === before ? null : { context: { theme }, version: 0 })
    }
    actor.stop()
  })
})

describe('theme', () => {
  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })

  it('defaults to light with nothing saved, and a new page starts from what was saved', () => {
    expect(readStoredTheme(new MemoryStorage())).toBe('light')
    const store = new MemoryStorage()
    writeStoredTheme('dark', store)
    expect(readStoredTheme(store)).toBe('dark')
  })

  it.each(['garbage', '{"context":{"theme":"purple"},"version":0}', '{"theme":"dark"}', 'null'])(
    'falls back to light on a bad stored value: %s',
    (raw) => {
      const store = new MemoryStorage()
      store.setItem(THEME_STORAGE_KEY, raw)
      expect(readStoredTheme(store)).toBe('light')
    },
  )

  it('reads without storage (private modes) as light and writes nothing', () => {
    expect(readStoredTheme(undefined)).toBe('light')
    expect(() => writeStoredTheme('dark', undefined)).not.toThrow()
  })
})
