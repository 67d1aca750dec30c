import { tokenize } from '../../../src/api/contract/post-text'

/**
 * A post search as typed, split into what each part asks for: `from:username` (posts by that member; several mean
 * any of them), `#tag` (posts with that hashtag; several must all be there), and the rest as words for full-text
 * search, where "quoted words" are a phrase and `-word` leaves posts out (PostgreSQL's websearch syntax, which never
 * fails on any input). Hashtags are read by the same scanner that indexed them (src/api/contract/post-text.ts).
 */
export interface SearchTerms {
  /** The full-text part, for websearch_to_tsquery; '' when the query is only filters. */
  text: string
  /** Lowercased usernames. */
  from: string[]
  /** Lowercased hashtags, without '#'. */
  tags: string[]
}

const FROM = /^from:@?([A-Za-z0-9_]{1,30})$/i
/** A quoted phrase (kept whole, filters inside it are words), or a run of non-blank characters. */
const CHUNK = /"[^"]*"?|[^\s"]+/g

function hashtagOf(chunk: string): string | null {
  const tokens = tokenize(chunk)
  const [only] = tokens
  return tokens.length === 1 && only?.kind === 'hashtag' ? only.tag.normalize('NFC').toLowerCase() : null
}

export function parseSearch(q: string): SearchTerms {
  const text: string[] = []
  const from = new Set<string>()
  const tags = new Set<string>()
  for (const [chunk] of q.matchAll(CHUNK)) {
    const author = FROM.exec(chunk)?.[1]
    const tag = chunk.startsWith('#') ? hashtagOf(chunk) : null
    if (author) from.add(author.toLowerCase())
    else if (tag) tags.add(tag)
    else text.push(chunk)
  }
  return { text: text.join(' ').trim(), from: [...from], tags: [...tags] }
}

/** Whether the search asks for anything at all (an empty one is refused rather than listing every post). */
export const isEmptySearch = (terms: SearchTerms) =>
  terms.text.replace(/["\s-]/g, '') === '' && terms.from.length === 0 && terms.tags.length === 0
