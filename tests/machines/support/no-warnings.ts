import { afterEach, beforeEach, expect, vi } from 'vitest'

// A machine test fails on any console warning or error it did not expect: XState reports misuse (a `raise()` from a
// running action, an unknown event in strict mode, an actor error nobody handles) only on the console, and a warning
// printed thousands of times hides the one that matters. A test that expects one spies on the console itself
// (`vi.spyOn(console, 'warn').mockImplementation(...)`), which replaces this guard for that test.

let unexpected: string[] = []

beforeEach(() => {
  unexpected = []
  for (const level of ['warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      unexpected.push(`console.${level}: ${args.map(String).join(' ')}`)
    })
  }
})

afterEach(() => {
  const seen = unexpected
  unexpected = []
  vi.restoreAllMocks()
  expect(seen, 'unexpected console output').toEqual([])
})
