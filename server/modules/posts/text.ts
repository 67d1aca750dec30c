/**
 * Mentions, hashtags and links of a post's text, found in one left-to-right pass: every character is looked at a
 * bounded number of times and each test is on a single character, so the cost is linear in the text whatever it
 * contains (no backtracking regular expression over the whole text, which hostile input could make exponential).
 *
 * The rules, chosen to match what people expect from other networks:
 * - `@name` is a mention when `@` does not follow a word character (so `ann@example.org` is not one), the name is
 *   3 to 30 of [A-Za-z0-9_] (the username rule) and is not followed by another word character or `@`
 *   (`@ann@other.example` names someone elsewhere).
 * - `#tag` is a hashtag when `#` does not follow a word character (`C#`, `a#b` are not), the tag is letters, marks,
 *   digits or `_` in any script, holds at least one letter (`#1` is not a tag) and is at most 100 characters.
 *   Tags are compared lowercased.
 * - `http://` and `https://` start a link running to the next whitespace, minus trailing punctuation. Mentions and
 *   hashtags inside a link (`https://example.org/#top`, `/@ann`) are part of the link, not of the post.
 *
 * The content itself is stored exactly as typed; this only decides what is indexed.
 */

export interface ParsedText {
  /** Usernames as typed, first occurrence order, unique case-insensitively. */
  mentions: string[]
  /** Lowercased, first occurrence order, unique. */
  hashtags: string[]
  links: string[]
}

export const MAX_HASHTAG_LENGTH = 100
const MIN_USERNAME = 3
const MAX_USERNAME = 30

const wordChar = /^[\p{L}\p{M}\p{N}_]$/u
const letter = /^\p{L}$/u
const usernameChar = /^[A-Za-z0-9_]$/
const space = /^\s$/u
// Characters that usually end a sentence rather than a URL.
const trailingPunctuation = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}', '"', "'", '>'])

const isWord = (ch: string | undefined) => ch !== undefined && wordChar.test(ch)

/** The code point at `i` as a string (one or two UTF-16 units), or undefined past the end. */
function charAt(text: string, i: number): string | undefined {
  const cp = text.codePointAt(i)
  return cp === undefined ? undefined : String.fromCodePoint(cp)
}

function startsLink(text: string, i: number): boolean {
  // Only the first 8 characters are compared: constant work per position.
  const head = text.slice(i, i + 8).toLowerCase()
  return head.startsWith('https://') || head.startsWith('http://')
}

/** End (exclusive) of the link starting at `i`: up to whitespace, then back over trailing punctuation. */
function linkEnd(text: string, i: number): number {
  let end = i
  while (end < text.length && !space.test(text[end] ?? ' ')) end += 1
  while (end > i && trailingPunctuation.has(text[end - 1] ?? '')) end -= 1
  return end
}

export function parseText(text: string): ParsedText {
  const mentions = new Map<string, string>()
  const hashtags = new Set<string>()
  const links: string[] = []
  let previous: string | undefined
  let i = 0

  while (i < text.length) {
    const ch = charAt(text, i) ?? ''

    if ((ch === 'h' || ch === 'H') && !isWord(previous) && startsLink(text, i)) {
      const end = linkEnd(text, i)
      const link = text.slice(i, end)
      // "http://" alone is not a link.
      if (!/^https?:\/\/$/i.test(link)) links.push(link)
      previous = text[end - 1]
      i = end
      continue
    }

    if (ch === '@' && !isWord(previous) && previous !== '@') {
      let end = i + 1
      while (end < text.length && usernameChar.test(text[end] ?? '')) end += 1
      const name = text.slice(i + 1, end)
      const next = charAt(text, end)
      if (name.length >= MIN_USERNAME && name.length <= MAX_USERNAME && !isWord(next) && next !== '@') {
        const key = name.toLowerCase()
        if (!mentions.has(key)) mentions.set(key, name)
      }
      previous = end > i + 1 ? text[end - 1] : ch
      i = end
      continue
    }

    if (ch === '#' && !isWord(previous)) {
      let end = i + 1
      let length = 0
      let hasLetter = false
      let last = ch
      for (let c = charAt(text, end); c !== undefined && isWord(c); c = charAt(text, end)) {
        hasLetter ||= letter.test(c)
        length += 1
        end += c.length
        last = c
      }
      if (hasLetter && length <= MAX_HASHTAG_LENGTH) hashtags.add(text.slice(i + 1, end).normalize('NFC').toLowerCase())
      previous = last
      i = end
      continue
    }

    previous = ch
    i += ch.length || 1
  }

  return { mentions: [...mentions.values()], hashtags: [...hashtags], links }
}

/** Length as members count it: Unicode code points (an emoji is one), the same way the contract's maxLength does. */
export function codePointLength(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i)
    // A high surrogate followed by its low surrogate is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1)
      if (low >= 0xdc00 && low <= 0xdfff) i += 1
    }
    n += 1
  }
  return n
}
