import { describe, expect, it } from 'vitest'
import {
  checkMutedDomain,
  checkMutedKeyword,
  checkReason,
  MUTE_TABS,
  REASON_TOO_LONG,
} from '../../src/machines/mutes/mutes.rules'

// What the mute forms accept ("value required (non-blank); user-mute reason optional, max 200").

describe('muted keyword and domain', () => {
  it('a keyword is trimmed, required and at most 100 characters', () => {
    expect(checkMutedKeyword('  big spoilers ')).toEqual({ ok: true, value: 'big spoilers' })
    expect(checkMutedKeyword('   ')).toEqual({ ok: false, message: 'Keyword is required' })
    expect(checkMutedKeyword('a'.repeat(101))).toEqual({ ok: false, message: 'Keyword must be at most 100 characters' })
  })

  it('a domain is trimmed, lowercased and must look like one', () => {
    expect(checkMutedDomain(' Spam.Example ')).toEqual({ ok: true, value: 'spam.example' })
    expect(checkMutedDomain('   ')).toEqual({ ok: false, message: 'Invalid domain format' })
    expect(checkMutedDomain('bad_domain')).toEqual({ ok: false, message: 'Invalid domain format' })
  })
})

describe('mute reason', () => {
  it('is optional, trimmed, and at most 200 characters after trimming', () => {
    expect(checkReason('')).toEqual({ ok: true, value: '' })
    expect(checkReason('  Too loud ')).toEqual({ ok: true, value: 'Too loud' })
    expect(checkReason(` ${'x'.repeat(200)} `)).toEqual({ ok: true, value: 'x'.repeat(200) })
    expect(checkReason('x'.repeat(201))).toEqual({ ok: false, message: REASON_TOO_LONG })
    expect(REASON_TOO_LONG).toBe('Reason must be at most 200 characters')
  })
})

describe('Mute Management tabs', () => {
  it('are users, keywords and domains, in that order', () => {
    expect(MUTE_TABS).toEqual(['users', 'keywords', 'domains'])
  })
})
