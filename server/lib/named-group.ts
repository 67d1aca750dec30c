import { LIMITS } from '../../src/api/contract/limits'
import { Invalid } from './domain-errors'
import { codePointLength } from './lengths'

// List and collection: a member list and a bookmark collection share one form and one rule set
// (name required, at most 50 characters; description at most 200; both trimmed). The web app checks the same rules
// in src/machines/lib/named-group.rules.ts.

export const NAME_REQUIRED = 'Name is required'
export const NAME_TOO_LONG = `Name must be at most ${LIMITS.listNameMax} characters`
export const DESCRIPTION_TOO_LONG = `Description must be at most ${LIMITS.listDescriptionMax} characters`

/** Trimmed; required; at most 50 code points. */
export function normalizeName(raw: string): string {
  const name = raw.trim()
  if (name === '') throw new Invalid(NAME_REQUIRED)
  if (codePointLength(name) > LIMITS.listNameMax) throw new Invalid(NAME_TOO_LONG)
  return name
}

/** Trimmed; at most 200 code points; blank is no description. */
export function normalizeDescription(raw: string | undefined): string {
  const description = raw?.trim() ?? ''
  if (codePointLength(description) > LIMITS.listDescriptionMax) throw new Invalid(DESCRIPTION_TOO_LONG)
  return description
}
