import { describe, expect, it } from 'vitest'
import { parseText } from '../../server/modules/posts/text'
import { safeHref, tokenize, type ContentToken } from '../../src/api/contract/post-text'
import { hashtagHref, profileHref } from '../../src/views/post/content-tokens'
import { formatCount, timeAgo } from '../../src/views/post/format'

// The pure pieces of the post card: the content tokenizer (what becomes a link, and that nothing becomes HTML), the
// 1K/1M abbreviation, and the relative time.

const kinds = (tokens: ContentToken[]) => tokens.map((t) => `${t.kind}:${t.text}`)

describe('tokenize', () => {
  it('finds mentions, hashtags and links, keeping the text between them', () => {
    expect(kinds(tokenize('Hi @ann, see #Wren and https://example.org/a?b=1.'))).toEqual([
      'text:Hi ',
      'mention:@ann',
      'text:, see ',
      'hashtag:#Wren',
      'text: and ',
      'link:https://example.org/a?b=1',
      'text:.',
    ])
  })

  it('gives each link its target: profile, hashtag search, the address itself', () => {
    const [mention, , tag, , link] = tokenize('@ann_2 #café https://example.org')
    expect(mention).toEqual({ kind: 'mention', text: '@ann_2', username: 'ann_2' })
    expect(tag).toEqual({ kind: 'hashtag', text: '#café', tag: 'café' })
    expect(link).toEqual({ kind: 'link', text: 'https://example.org', href: 'https://example.org/' })
    expect(profileHref('ann_2')).toBe('/profile/ann_2')
    expect(hashtagHref('café')).toBe('/search?q=%23caf%C3%A9')
  })

  it('leaves what is not a mention or hashtag as text', () => {
    for (const text of ['mail ann@example.org', '@ab is too short', `@${'a'.repeat(31)}`, 'C# and a#b', '#1 and #2024', '@ann@elsewhere.social']) {
      expect(tokenize(text).filter((t) => t.kind === 'mention' || t.kind === 'hashtag'), text).toEqual([])
    }
  })

  it('keeps mentions and hashtags inside a link part of the link', () => {
    expect(kinds(tokenize('https://example.org/@ann#top'))).toEqual(['link:https://example.org/@ann#top'])
  })

  it('never makes HTML or a script link out of the text', () => {
    const evil = '<img src=x onerror=alert(1)> javascript:alert(1) data:text/html,<b>x</b> http://'
    const tokens = tokenize(evil)
    expect(tokens.every((t) => t.kind === 'text')).toBe(true)
    expect(tokens.map((t) => t.text).join('')).toBe(evil)
    expect(safeHref('javascript:alert(1)')).toBeNull()
    expect(safeHref('http://')).toBeNull()
    // A link that smuggles markup stays a well-formed, escaped URL (the closing '>' ends it like punctuation).
    const [link, rest] = tokenize('https://example.org/"><script>')
    expect(link?.kind === 'link' && link.href).toBe('https://example.org/%22%3E%3Cscript')
    expect(rest).toEqual({ kind: 'text', text: '>' })
  })

  it('puts every character back, whatever the text', () => {
    for (const text of ['', '   ', 'plain', '🐦 @ann 🐦 #鳥 https://例え.jp/パス', '@@ann ##tag', 'emoji 👩‍👩‍👧 #tag👍']) {
      expect(tokenize(text).map((t) => t.text).join('')).toBe(text)
    }
  })

  it('links exactly what the server indexed', () => {
    const samples = [
      'Hello @ann and @Bob_99! #Wren #wren #2024 #café_au_lait',
      'ann@example.org C# a#b https://example.org/#top /@ann @ann@elsewhere',
      'Mixed: (@ann) [#tag] "https://example.org/x." and #日本語',
    ]
    for (const text of samples) {
      const server = parseText(text)
      const tokens = tokenize(text)
      const mentions = [...new Map(tokens.flatMap((t) => (t.kind === 'mention' ? [[t.username.toLowerCase(), t.username] as const] : []))).values()]
      const hashtags = [...new Set(tokens.flatMap((t) => (t.kind === 'hashtag' ? [t.tag.normalize('NFC').toLowerCase()] : [])))]
      const links = tokens.flatMap((t) => (t.kind === 'link' ? [t.text] : []))
      const firstLink = tokens.flatMap((t) => (t.kind === 'link' ? [t.href] : []))[0] ?? null
      expect({ mentions, hashtags, links, firstLink }, text).toEqual(server)
    }
  })

  it('stays linear on hostile input', () => {
    // Growth, not a time limit (a busy machine must not fail it): 8x the input must cost far less than the 64x a
    // quadratic tokenizer would. Best of three runs of each size, so one stall does not decide.
    const hostile = (n: number) => '@'.repeat(5_000 * n) + '#'.repeat(5_000 * n) + 'http'.repeat(2_000 * n)
    const cost = (text: string) => {
      let best = Number.POSITIVE_INFINITY
      for (let run = 0; run < 3; run += 1) {
        const started = performance.now()
        tokenize(text)
        best = Math.min(best, performance.now() - started)
      }
      return best
    }
    const small = cost(hostile(2))
    const large = cost(hostile(16))
    expect(large / Math.max(small, 0.05)).toBeLessThan(24)
  })
})

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1_000, '1K'],
    [1_050, '1K'],
    [1_100, '1.1K'],
    [1_999, '1.9K'],
    [12_345, '12.3K'],
    [999_999, '999.9K'],
    [1_000_000, '1M'],
    [1_250_000, '1.2M'],
    [48_000_000, '48M'],
    [-3, '0'],
    [Number.NaN, '0'],
  ])('%d reads %s', (n, text) => {
    expect(formatCount(n)).toBe(text)
  })
})

describe('timeAgo', () => {
  const now = Date.UTC(2026, 10, 21, 12, 0, 0)
  it.each([
    [now - 20_000, 'a few seconds ago'],
    [now + 5_000, 'a few seconds ago'],
    [now - 3 * 60_000, '3 minutes ago'],
    [now - 5 * 3_600_000, '5 hours ago'],
    [now - 2 * 86_400_000, '2 days ago'],
  ])('%s', (at, text) => {
    expect(timeAgo(new Date(at).toISOString(), now)).toBe(text)
  })

  it('says nothing for a broken date', () => {
    expect(timeAgo('not a date', now)).toBe('')
  })
})
