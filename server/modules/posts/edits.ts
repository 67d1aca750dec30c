import { LIMITS } from '../../../src/api/contract/limits'
import { narrowsAudience, POST_EDIT_RULES } from '../../../src/api/contract/post-edits'
import type { Visibility } from '../../db/schema-posts'
import { Invalid } from '../../lib/domain-errors'
import { codePointLength } from '../../lib/lengths'
import type { Schemas } from '../../http/handler-types'
import type { EditableState, EditedPost, VersionRow } from './edit-queries'
import { toDate } from '../../db/rows'

// The rules of editing a post (docs/product.md, "Editing a post"): what may change and how, checked as a new post's
// fields are, with the same words.

export const CONTENT_REQUIRED = 'Content is required when no media is attached'
export const NOT_YOUR_POST_TO_EDIT = 'You can only edit your own posts'
export const { WIDER_AUDIENCE, ALT_WITHOUT_MEDIA } = POST_EDIT_RULES

export type UpdatePostInput = Schemas['UpdatePostRequest']

const blankToNull = (text: string | null | undefined) => {
  const trimmed = text?.trim()
  return trimmed ? trimmed : null
}

/** The post's state after the edit, or an Invalid with the words a new post would get. */
export function editedState(before: EditedPost, input: UpdatePostInput): EditableState {
  const content = input.content ?? before.content
  if (codePointLength(content) > LIMITS.postLength) throw new Invalid(`Content must be at most ${LIMITS.postLength} characters`)
  if (content.trim() === '' && before.mediaIds.length === 0) throw new Invalid(CONTENT_REQUIRED)
  const visibility: Visibility = input.visibility ?? before.visibility
  if (!narrowsAudience(before.visibility, visibility)) throw new Invalid(WIDER_AUDIENCE)
  const sensitive = input.sensitive ?? before.sensitive
  const reason = sensitive ? blankToNull(input.sensitiveReason === undefined ? before.sensitiveReason : input.sensitiveReason) : null
  if (reason && codePointLength(reason) > LIMITS.sensitiveReasonLength) {
    throw new Invalid(`sensitiveReason must be at most ${LIMITS.sensitiveReasonLength} characters`)
  }
  let alts = before.alts
  if (input.alt !== undefined) {
    if (input.alt.length > before.mediaIds.length) throw new Invalid(ALT_WITHOUT_MEDIA)
    alts = before.mediaIds.map((_, i) => blankToNull(input.alt?.[i]))
  }
  return { content, visibility, sensitive, sensitiveReason: reason, alts }
}

export function sameState(a: EditableState, b: EditableState): boolean {
  return (
    a.content === b.content &&
    a.visibility === b.visibility &&
    a.sensitive === b.sensitive &&
    a.sensitiveReason === b.sensitiveReason &&
    a.alts.length === b.alts.length &&
    a.alts.every((alt, i) => alt === b.alts[i])
  )
}

/** Who may see the post changed: its audience, or, for a mentioned-only post, who is mentioned. */
export function audienceChanged(
  before: EditedPost,
  after: EditableState,
  mentionIds: readonly string[],
): boolean {
  if (before.visibility !== after.visibility) return true
  if (after.visibility !== 'mentioned') return false
  const now = new Set(mentionIds)
  return now.size !== before.mentionIds.length || before.mentionIds.some((id) => !now.has(id))
}

export function toVersion(row: VersionRow): Schemas['PostVersion'] {
  return {
    id: row.id,
    content: row.content,
    visibility: row.visibility,
    sensitive: row.sensitive,
    sensitiveReason: row.sensitive_reason,
    alts: row.alts,
    createdAt: toDate(row.created_at).toISOString(),
  }
}
