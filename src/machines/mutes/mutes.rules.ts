import * as z from 'zod/mini'
import { LIMITS } from '../../api/contract/limits'
import { checkDomain, checkKeyword, type Checked } from '../filter-lists/filter-lists.rules'

// Mutes ("value required (non-blank); user-mute reason optional, max 200"). Keywords and domains are
// the contract's shared `Keyword` and `Domain` (openapi.yaml), so they are checked by the lists actor's rules;
// the reason is the mute's own. Used by the machines' guards and the views' buttons, so both agree.

export { canSubmitDraft } from '../filter-lists/filter-lists.rules'
export type { Checked }

export const REASON_TOO_LONG = `Reason must be at most ${LIMITS.muteReasonMax} characters`

/** Defaults when a refusal carries no message of the server's. */
export const MUTE_FAILED = 'Failed to mute'
export const UNMUTE_FAILED = 'Failed to unmute'
/** Said by the Mute Management dialog and by a profile's Unmute button. */
export const USER_UNMUTED = 'User unmuted successfully'

/** A keyword as it will be sent (trimmed), or the first thing wrong with it. */
export const checkMutedKeyword = (raw: string): Checked => checkKeyword(raw)

/** A domain as it will be sent (trimmed, lowercased), or 'Invalid domain format'. */
export const checkMutedDomain = (raw: string): Checked => checkDomain(raw)

const reasonSchema = z.string().check(z.trim(), z.maxLength(LIMITS.muteReasonMax, REASON_TOO_LONG))

/** The optional reason as it will be sent (trimmed; empty means none), or why it is refused. */
export function checkReason(raw: string): Checked {
  const result = reasonSchema.safeParse(raw)
  return result.success ? { ok: true, value: result.data } : { ok: false, message: REASON_TOO_LONG }
}

/** The Users / Keywords / Domains tabs of the Mute Management dialog, in order. */
export const MUTE_TABS = ['users', 'keywords', 'domains'] as const
export type MuteTab = (typeof MUTE_TABS)[number]
