import { describe, expect, it } from 'vitest'
import { Forbidden, Invalid, Network, Server, Timeout } from '../../src/api/errors'
import { toFormData } from '../../src/api/posts.calls'
import { postFailureMessage } from '../../src/machines/composer/composer.failure'
import { LIMITS } from '../../src/api/contract/limits'
import {
  EMPTY_DRAFT,
  isMediaFull,
  lengthLevel,
  localDate,
  MAX_ALT_LENGTH,
  MAX_MEDIA,
  MAX_POST_LENGTH,
  MAX_REASON_LENGTH,
  MESSAGES,
  postLength,
  validateDraft,
  type Draft,
} from '../../src/machines/composer/composer.rules'

// The composer's rules as plain functions (docs/product.md, "Writing a post"), and the multipart form it sends.

const today = '2026-11-21'
const draft = (fields: Partial<Draft>): Draft => ({ ...EMPTY_DRAFT, ...fields })
const image = (name: string) => new File([new Uint8Array([1])], name, { type: 'image/png' })
const attachment = (id: string) => ({ id, file: image(`${id}.png`), kind: 'image' as const, alt: '' })

describe('postLength', () => {
  it('counts code points, so an emoji is one character', () => {
    expect(postLength('')).toBe(0)
    expect(postLength('abc')).toBe(3)
    expect(postLength('🐦🐦')).toBe(2)
    expect(postLength('é')).toBe(1)
  })
})

describe('validateDraft', () => {
  it('accepts text, media, or both', () => {
    expect(validateDraft(draft({ content: 'Hello' }), today)).toEqual({})
    expect(validateDraft(draft({ media: [attachment('m1')] }), today)).toEqual({})
    expect(validateDraft(draft({ content: 'x'.repeat(499) + '🐦' }), today)).toEqual({})
  })

  it('says each broken rule in the product words', () => {
    expect(validateDraft(draft({ content: 'x'.repeat(501) }), today)).toEqual({ content: MESSAGES.tooLong })
    expect(validateDraft(draft({ content: '  \n ' }), today)).toEqual({ content: MESSAGES.contentRequired })
    expect(validateDraft(draft({ content: 'Hi', visibility: 'everyone' }), today)).toEqual({ visibility: MESSAGES.visibility })
    expect(validateDraft(draft({ content: 'Hi', media: ['1', '2', '3', '4', '5'].map(attachment) }), today)).toEqual({
      media: MESSAGES.tooManyFiles,
    })
    expect(MESSAGES.contentRequired).toBe('Content is required when no media is attached')
    expect(MESSAGES.tooManyFiles).toBe('Maximum 4 media files allowed')
    expect(MESSAGES.visibility).toBe('Please select a valid visibility option')
  })

  it('lets the schedule date be today or later, never earlier', () => {
    expect(validateDraft(draft({ content: 'Hi', scheduleDate: '2026-11-20' }), today)).toEqual({ schedule: MESSAGES.scheduleInPast })
    expect(validateDraft(draft({ content: 'Hi', scheduleDate: today }), today)).toEqual({})
    expect(validateDraft(draft({ content: 'Hi', scheduleDate: '2027-01-01' }), today)).toEqual({})
  })

  it('reads the local date the way a date input writes it', () => {
    expect(localDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05')
  })
})

describe('limits', () => {
  it('are the product limits the server enforces: 500 characters, 4 files, a 200-character reason', () => {
    expect([MAX_POST_LENGTH, MAX_MEDIA, MAX_REASON_LENGTH, MAX_ALT_LENGTH]).toEqual([
      LIMITS.postLength,
      LIMITS.postMedia,
      LIMITS.sensitiveReasonLength,
      LIMITS.altTextLength,
    ])
    expect([MAX_POST_LENGTH, MAX_MEDIA, MAX_REASON_LENGTH]).toEqual([500, 4, 200])
  })

  it('lets 500 characters through and stops at 501, with the spec message', () => {
    expect(validateDraft(draft({ content: 'x'.repeat(500) }), today)).toEqual({})
    expect(validateDraft(draft({ content: 'x'.repeat(501) }), today)).toEqual({ content: 'Maximum 500 characters' })
  })

  it('accepts four files and refuses a fifth', () => {
    expect(validateDraft(draft({ media: ['1', '2', '3', '4'].map(attachment) }), today)).toEqual({})
    expect(validateDraft(draft({ media: ['1', '2', '3', '4', '5'].map(attachment) }), today).media).toBe('Maximum 4 media files allowed')
  })
})

describe('the counter and the media button', () => {
  it('counter: quiet up to 450, plain from 451 to 500, an error from 501', () => {
    expect(lengthLevel(0)).toBe('ok')
    expect(lengthLevel(450)).toBe('ok')
    expect(lengthLevel(451)).toBe('near')
    expect(lengthLevel(500)).toBe('near')
    expect(lengthLevel(501)).toBe('over')
  })

  it('media button: says the limit once four files are attached', () => {
    expect(isMediaFull(draft({ media: ['1', '2', '3'].map(attachment) }))).toBe(false)
    expect(isMediaFull(draft({ media: ['1', '2', '3', '4'].map(attachment) }))).toBe(true)
  })
})

describe('postFailureMessage (precedence of the failure toast)', () => {
  it.each([
    ['the server error field', new Invalid({ status: 400, message: 'Maximum 4 media files allowed', fromServer: true, details: ['ignored'] }), 'Maximum 4 media files allowed'],
    ['the server error field on any status', new Forbidden({ message: 'Replies are closed', fromServer: true }), 'Replies are closed'],
    ['else the details, joined', new Invalid({ status: 400, message: 'The request was refused.', fromServer: false, details: ['a', 'b'] }), 'a, b'],
    ['else the client message (offline)', new Network({ message: 'Unable to reach the server.' }), 'Unable to reach the server.'],
    ['else the client message (timeout)', new Timeout({ message: 'The request timed out.' }), 'The request timed out.'],
    ['else the client message (bare 502)', new Server({ status: 502, message: 'Something went wrong on our side.', fromServer: false }), 'Something went wrong on our side.'],
    ['else a thrown error message', new Error('boom'), 'boom'],
    ['else the default', new Error(''), 'An error occurred while creating the post'],
    ['else the default (not an error)', 'weird', 'An error occurred while creating the post'],
  ])('%s', (_case, error, text) => {
    expect(postFailureMessage(error)).toBe(text)
  })
})

describe('toFormData', () => {
  it('sends text fields as strings, one media part per file and its alt at the same position', () => {
    const a = image('a.png')
    const b = image('b.png')
    const form = toFormData({
      content: 'Two photos',
      visibility: 'followers',
      sensitive: true,
      sensitiveReason: '  Spoilers ',
      replyTo: 'p1',
      media: [
        { file: a, alt: 'First' },
        { file: b, alt: '' },
      ],
    })
    expect(form.get('content')).toBe('Two photos')
    expect(form.get('visibility')).toBe('followers')
    expect(form.get('sensitive')).toBe('true')
    expect(form.get('sensitiveReason')).toBe('Spoilers')
    expect(form.get('replyTo')).toBe('p1')
    expect(form.getAll('media').map((f) => (f as File).name)).toEqual(['a.png', 'b.png'])
    expect(form.getAll('alt')).toEqual(['First', ''])
  })

  it('leaves out what is empty or not asked for', () => {
    const form = toFormData({ content: '', visibility: 'public', sensitive: false, sensitiveReason: 'kept quiet', replyTo: null, media: [] })
    expect([...form.keys()]).toEqual(['visibility', 'sensitive'])
    expect(form.get('sensitive')).toBe('false')
  })
})
