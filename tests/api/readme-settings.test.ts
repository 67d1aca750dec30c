import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { settings } from '../../server/config'

// The README's settings table is what an operator reads: a setting the server accepts but the README omits is a
// setting nobody can find. This keeps the two in step.
describe('README settings table', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  const rows = new Map(
    [...readme.matchAll(/^\| `([A-Z_]+)` \| ([^|]+) \|/gm)].map((m) => [m[1], m[2]?.trim()]),
  )

  for (const s of Object.values(settings)) {
    it(`documents ${s.name} with its default`, () => {
      expect(rows.has(s.name)).toBe(true)
      expect(rows.get(s.name)).toBe(s.default === undefined ? 'unset' : `\`${s.default}\``)
    })
  }
})
