import { tokenize } from '../../../src/api/contract/post-text'

/**
 * What the server indexes from a post's text: its mentions, hashtags and links, read off the scanner the web app also
 * renders with (src/api/contract/post-text.ts, where the rules and the linear-time argument live), so a card links exactly
 * what was indexed. The content itself is stored exactly as typed.
 */

export interface ParsedText {
  /** Usernames as typed, first occurrence order, unique case-insensitively. */
  mentions: string[]
  /** Lowercased (NFC), first occurrence order, unique. */
  hashtags: string[]
  links: string[]
  /** The address of the first well-formed http(s) link, which the card previews (link-previews/). */
  firstLink: string | null
}

export function parseText(text: string): ParsedText {
  const mentions = new Map<string, string>()
  const hashtags = new Set<string>()
  const links: string[] = []
  let firstLink: string | null = null
  for (const token of tokenize(text)) {
    if (token.kind === 'mention') {
      const key = token.username.toLowerCase()
      if (!mentions.has(key)) mentions.set(key, token.username)
    } else if (token.kind === 'hashtag') {
      hashtags.add(token.tag.normalize('NFC').toLowerCase())
    } else if (token.kind === 'link') {
      links.push(token.text)
      firstLink ??= token.href
    }
  }
  return { mentions: [...mentions.values()], hashtags: [...hashtags], links, firstLink }
}
