import { INVALID_DOMAIN } from '../filter-lists/filter-lists.rules'

// Settings -> Blocked Accounts (docs/product.md, "Blocks"): the keyword and domain rules are the lists actor's, shared
// with mutes (filter-lists.rules.ts); what is the blocks' own is the words of a refused Add.

export {
  canSubmitDraft,
  checkDomain,
  checkKeyword,
  DOMAIN_MAX,
  DOMAIN_PATTERN,
  domainSchema,
  INVALID_DOMAIN,
  KEYWORD_REQUIRED,
  KEYWORD_TOO_LONG,
  keywordSchema,
  type Checked,
} from '../filter-lists/filter-lists.rules'

/** Defaults when a refusal carries no message of the server's (docs/product.md, "Blocks"). */
export const BLOCK_KEYWORD_FAILED = 'Failed to block keyword'
export const BLOCK_DOMAIN_FAILED = INVALID_DOMAIN
