import * as z from 'zod/mini'
import { LIMITS } from '../../api/contract/limits'

// Settings -> Blocked Accounts (docs/product.md, "Blocks"): what the two Add forms accept, checked before the call
// with the server's own texts; the server checks again. Used by the blocked machine's guards and the view's buttons.

export const KEYWORD_REQUIRED = 'Keyword is required'
export const KEYWORD_TOO_LONG = `Keyword must be at most ${LIMITS.blockedKeywordMax} characters`
export const INVALID_DOMAIN = 'Invalid domain format'
/** The longest domain name the server accepts. */
export const DOMAIN_MAX = 253
/** Labels of letters and digits with inner hyphens, dot separated, the last one at least 2 letters. */
export const DOMAIN_PATTERN = /^(?:[a-z0-9]+(?:-+[a-z0-9]+)*\.)+[a-z]{2,}$/

/** Defaults when a refusal carries no message of the server's (docs/product.md, "Blocks"). */
export const BLOCK_KEYWORD_FAILED = 'Failed to block keyword'
export const BLOCK_DOMAIN_FAILED = INVALID_DOMAIN

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

/** Add is offered once something is typed (docs/product.md: "Add disabled when empty or saving"). */
export const canSubmitDraft = (draft: string, saving: boolean): boolean => !saving && draft.trim() !== ''
