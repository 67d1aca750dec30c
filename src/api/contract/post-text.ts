// The one scanner for a post's text, shared by the server (which indexes mentions, hashtags and links from it:
// server/modules/posts/text.ts) and the web app (which renders the same tokens as React nodes, never as HTML), so
// what is linked on a card is exactly what the server indexed. Rules:
// - `@name`: not after a word character, 3 to 30 of [A-Za-z0-9_], not followed by a word character or `@`
//   (`ann@example.org` and `@ann@other.example` are not mentions);
// - `#tag`: not after a word character, letters/marks/digits/_ in any script, at least one letter, at most 100;
// - `http://` / `https://` up to the next whitespace, minus trailing punctuation; mentions and hashtags inside a link
//   belong to the link.
// One left-to-right pass with single-character tests: linear in the text, whatever it holds (no backtracking regular
// expression that hostile input could make exponential).

export type ContentToken =
  | { kind: 'text'; text: string }
  | { kind: 'mention'; text: string; username: string }
  | { kind: 'hashtag'; text: string; tag: string }
  | { kind: 'link'; text: string; href: string }

export const MAX_HASHTAG_LENGTH = 100
const MIN_USERNAME = 3
const MAX_USERNAME = 30

const wordChar = /^[\p{L}\p{M}\p{N}_]$/u
const letter = /^\p{L}$/u
const usernameChar = /^[A-Za-z0-9_]$/
const space = /^\s$/u
const trailingPunctuation = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}', '"', "'", '>'])

const isWord = (ch: string | undefined) => ch !== undefined && wordChar.test(ch)

function charAt(text: string, i: number): string | undefined {
  const cp = text.codePointAt(i)
  return cp === undefined ? undefined : String.fromCodePoint(cp)
}

function startsLink(text: string, i: number): boolean {
  const head = text.slice(i, i + 8).toLowerCase()
  return head.startsWith('https://') || head.startsWith('http://')
}

function linkEnd(text: string, i: number): number {
  let end = i
  while (end < text.length && !space.test(text[end] ?? ' ')) end += 1
  while (end > i && trailingPunctuation.has(text[end - 1] ?? '')) end -= 1
  return end
}

/** The link's address when it is a well-formed http(s) URL; anything else stays text. */
export function safeHref(text: string): string | null {
  if (/^https?:\/\/$/i.test(text)) return null
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

export function tokenize(text: string): ContentToken[] {
  const tokens: ContentToken[] = []
  let plainStart = 0
  let previous: string | undefined
  let i = 0

  const push = (start: number, token: ContentToken) => {
    if (start > plainStart) tokens.push({ kind: 'text', text: text.slice(plainStart, start) })
    tokens.push(token)
  }

  while (i < text.length) {
    const ch = charAt(text, i) ?? ''

    if ((ch === 'h' || ch === 'H') && !isWord(previous) && startsLink(text, i)) {
      const end = linkEnd(text, i)
      const link = text.slice(i, end)
      const href = safeHref(link)
      if (href) {
        push(i, { kind: 'link', text: link, href })
        plainStart = end
      }
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
        push(i, { kind: 'mention', text: text.slice(i, end), username: name })
        plainStart = end
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
      if (hasLetter && length <= MAX_HASHTAG_LENGTH) {
        push(i, { kind: 'hashtag', text: text.slice(i, end), tag: text.slice(i + 1, end) })
        plainStart = end
      }
      previous = last
      i = end
      continue
    }

    previous = ch
    i += ch.length || 1
  }

  if (plainStart < text.length) tokens.push({ kind: 'text', text: text.slice(plainStart) })
  return tokens
}
