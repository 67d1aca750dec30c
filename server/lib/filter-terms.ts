import { LIMITS } from '../../src/api/contract/limits'
import { Invalid } from './domain-errors'
import { codePointLength } from './lengths'

/**
 * The keywords and domains members filter posts by, blocked (server/modules/blocks) or muted (server/modules/mutes):
 * one set of rules for both lists, so a value accepted by one is accepted by the other and stored the same way.
 */

// The product's words (docs/product.md, "Blocks" and "Mutes").
export const KEYWORD_REQUIRED = 'Keyword is required'
export const KEYWORD_TOO_LONG = `Keyword must be at most ${LIMITS.blockedKeywordMax} characters`
export const INVALID_DOMAIN = 'Invalid domain format'
/** How many keywords, and how many domains, one member may have in each list. */
export const FILTER_LIST_CAP = 1_000

/**
 * Labels of lowercase letters and digits with inner hyphens, dot separated, the last one at least 2 letters. No
 * overlapping alternatives (a hyphen run must be followed by a letter or digit, a label ends at a dot), so matching
 * is linear; the input is at most 253 characters anyway.
 */
const DOMAIN = /^(?:[a-z0-9]+(?:-+[a-z0-9]+)*\.)+[a-z]{2,}$/
const DOMAIN_MAX = 253

/** Trimmed; stored as typed, compared case-insensitively. */
export function normalizeKeyword(raw: string): string {
  const keyword = raw.trim()
  if (keyword === '') throw new Invalid(KEYWORD_REQUIRED)
  if (codePointLength(keyword) > LIMITS.blockedKeywordMax) throw new Invalid(KEYWORD_TOO_LONG)
  return keyword
}

/** Trimmed and lowercased. */
export function normalizeDomain(raw: string): string {
  const domain = raw.trim().toLowerCase()
  if (domain.length > DOMAIN_MAX || !DOMAIN.test(domain)) throw new Invalid(INVALID_DOMAIN)
  return domain
}

/**
 * The product's words for a keyword body field, instead of the generic validation sentences (server/http/
 * validation-messages.ts, `FieldMessages`): a blank or long keyword fails the yaml's rules before any service sees it.
 */
export const keywordMessages = {
  keyword: { minLength: KEYWORD_REQUIRED, pattern: KEYWORD_REQUIRED, maxLength: KEYWORD_TOO_LONG },
}
