import * as z from 'zod/mini'
import { LIMITS } from '../../api/contract/limits'

// The keyword and domain lists members filter posts by, blocked (Settings -> Blocked Accounts) or muted (the Mute
// Management dialog): what the Add forms accept, checked before the call with the server's own texts
// (server/lib/filter-terms.ts); the server checks again. Used by the lists actor's guards and the views' buttons.

export const KEYWORD_REQUIRED = 'Keyword is required'
export const KEYWORD_TOO_LONG = `Keyword must be at most ${LIMITS.blockedKeywordMax} characters`
export const INVALID_DOMAIN = 'Invalid domain format'
/** The longest domain name the server accepts. */
export const DOMAIN_MAX = 253
/** Labels of letters and digits with inner hyphens, dot separated, the last one at least 2 letters. */
export const DOMAIN_PATTERN = /^(?:[a-z0-9]+(?:-+[a-z0-9]+)*\.)+[a-z]{2,}$/

/** A member's keywords or domains: each list has its own chips and Add form. */
export const FILTER_LISTS = ['keywords', 'domains'] as const
export type FilterList = (typeof FILTER_LISTS)[number]

export const keywordSchema = z
  .string()
  .check(z.trim(), z.minLength(1, KEYWORD_REQUIRED), z.maxLength(LIMITS.blockedKeywordMax, KEYWORD_TOO_LONG))

export const domainSchema = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.maxLength(DOMAIN_MAX, INVALID_DOMAIN), z.regex(DOMAIN_PATTERN, INVALID_DOMAIN))

export type Checked = { ok: true; value: string } | { ok: false; message: string }

function check(schema: typeof keywordSchema, raw: string): Checked {
  const result = schema.safeParse(raw)
  return result.success ? { ok: true, value: result.data } : { ok: false, message: result.error.issues[0]?.message ?? INVALID_DOMAIN }
}

/** A keyword as it will be sent (trimmed), or the first thing wrong with it. */
export const checkKeyword = (raw: string): Checked => check(keywordSchema, raw)

/** A domain as it will be sent (trimmed, lowercased), or 'Invalid domain format'. */
export const checkDomain = (raw: string): Checked => check(domainSchema, raw)

/** Each list's check. */
export const checkFilter: Record<FilterList, (raw: string) => Checked> = { keywords: checkKeyword, domains: checkDomain }

/** Add is offered once something is typed (docs/product.md: "Add disabled when empty or saving"). */
export const canSubmitDraft = (draft: string, saving: boolean): boolean => !saving && draft.trim() !== ''
