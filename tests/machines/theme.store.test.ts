import { describe, expect, it } from 'vitest'
import { createThemeStore, THEME_STORAGE_KEY } from '../../src/machines/theme/theme.store'
import { MemoryStorage } from './support/memory-storage'

describe('theme store', () => {
  it('defaults to light', () => {
    expect(createThemeStore(new MemoryStorage()).getSnapshot().context.theme).toBe('light')
  })

  it('toggles and sets, persisting every change under theme-storage', () => {
    const storage = new MemoryStorage()
    const store = createThemeStore(storage)
    store.trigger['theme.toggle']()
    expect(store.getSnapshot().context.theme).toBe('dark')
    expect(JSON.parse(storage.getItem(THEME_STORAGE_KEY) ?? 'null')).toEqual({ context: { theme: 'dark' }, version: 0 })
    store.trigger['theme.set']({ theme: 'light' })
    expect(JSON.parse(storage.getItem(THEME_STORAGE_KEY) ?? 'null')).toMatchObject({ context: { theme: 'light' } })
  })

  it('restores the saved theme in a new page', () => {
    const storage = new MemoryStorage()
    createThemeStore(storage).trigger['theme.set']({ theme: 'dark' })
    expect(createThemeStore(storage).getSnapshot().context.theme).toBe('dark')
  })

  it.each(['garbage', '{"context":{"theme":"purple"},"version":0}', '{"theme":"dark"}', 'null'])(
    'falls back to light on a bad stored value: %s',
    (raw) => {
      const storage = new MemoryStorage()
      storage.setItem(THEME_STORAGE_KEY, raw)
      expect(createThemeStore(storage).getSnapshot().context.theme).toBe('light')
    },
  )

  it('works without any storage (private mode)', () => {
    const store = createThemeStore(undefined)
    store.trigger['theme.toggle']()
    expect(store.getSnapshot().context.theme).toBe('dark')
  })
})
