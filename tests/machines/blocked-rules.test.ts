import { describe, expect, it } from 'vitest'
import {
  canSubmitDraft,
  checkDomain,
  checkKeyword,
  INVALID_DOMAIN,
  KEYWORD_REQUIRED,
  KEYWORD_TOO_LONG,
} from '../../src/machines/blocked/blocked.rules'

// The two Add forms of Settings -> Blocked Accounts, with the server's texts (docs/product.md, "Blocks").

describe('blocked keyword', () => {
  it('is trimmed and required', () => {
    expect(checkKeyword('  big spoilers ')).toEqual({ ok: true, value: 'big spoilers' })
    expect(checkKeyword('   ')).toEqual({ ok: false, message: KEYWORD_REQUIRED })
  })

  it('is at most 100 characters, after trimming', () => {
    expect(checkKeyword(` ${'a'.repeat(100)} `)).toEqual({ ok: true, value: 'a'.repeat(100) })
    expect(checkKeyword('a'.repeat(101))).toEqual({ ok: false, message: 'Keyword must be at most 100 characters' })
    expect(KEYWORD_TOO_LONG).toBe('Keyword must be at most 100 characters')
  })
})

describe('blocked domain', () => {
  it.each([
    [' Spam.Example ', 'spam.example'],
    ['news.spam-site.co', 'news.spam-site.co'],
    ['a1.b--c.io', 'a1.b--c.io'],
  ])('accepts %j as %j', (raw, value) => {
    expect(checkDomain(raw)).toEqual({ ok: true, value })
  })

  it.each(['', 'localhost', 'spam.c', 'spam.123', '-spam.example', 'spam-.example', 'spam..example', 'https://spam.example', 'spam example.com', `${'a'.repeat(250)}.com`])(
    'refuses %j',
    (raw) => {
      expect(checkDomain(raw)).toEqual({ ok: false, message: INVALID_DOMAIN })
    },
  )
})

describe('Add buttons', () => {
  it('are offered once something is typed and nothing is saving', () => {
    expect(canSubmitDraft('', false)).toBe(false)
    expect(canSubmitDraft('  ', false)).toBe(false)
    expect(canSubmitDraft('x', false)).toBe(true)
    expect(canSubmitDraft('x', true)).toBe(false)
  })
})
