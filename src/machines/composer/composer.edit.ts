import { AUDIENCE_ORDER, narrowsAudience, POST_EDIT_RULES } from '../../api/contract/post-edits'
import type { Post, PostUpdate, Visibility } from '../../api/posts.calls'
import { EMPTY_DRAFT, isVisibility, MESSAGES, validateDraft, type Draft, type DraftErrors } from './composer.rules'

// The composer's edit mode (docs/product.md, "Editing a post"): the author's own post opened in the composer, its
// text, audience, sensitive flag and alt texts prefilled. The files stay as they are (shown, not removable, no new
// ones), the audience may only narrow, and Save sends only what changed.

/** One media file of the post being edited: shown by its URL, only its alt text editable. */
export interface EditedMedia {
  readonly id: string
  readonly kind: 'image' | 'video'
  readonly url: string
  readonly alt: string
}

/** The post being edited, as it was when the composer opened. */
export interface EditTarget {
  readonly postId: string
  readonly original: Draft
  readonly visibility: Visibility
  readonly media: ReadonlyArray<EditedMedia>
  readonly originalAlts: ReadonlyArray<string>
}

export type ComposerEditEvent =
  | { type: 'composer.edit.open'; post: Post }
  | { type: 'composer.edit.alt.change'; id: string; value: string }

export const EDIT_MESSAGES = {
  saved: 'Post updated!',
  failed: 'Could not save your changes',
  wider: POST_EDIT_RULES.WIDER_AUDIENCE,
  widerHint: POST_EDIT_RULES.WIDER_AUDIENCE_HINT,
} as const

export function editTargetOf(post: Post): EditTarget {
  const media = post.media.map((m) => ({ id: m.id, kind: m.type, url: m.thumbnailUrl ?? m.url, alt: m.alt ?? '' }))
  return {
    postId: post.id,
    original: draftOf(post),
    visibility: post.visibility,
    media,
    originalAlts: media.map((m) => m.alt),
  }
}

/** The composer's draft for a post being edited: its text and options; its files live in the target. */
export function draftOf(post: Post): Draft {
  return {
    ...EMPTY_DRAFT,
    content: post.content,
    visibility: post.visibility,
    sensitive: post.sensitive,
    sensitiveReason: post.sensitiveReason ?? '',
  }
}

/** The audiences the select offers, each with whether an edit may choose it. */
export function audienceChoices(target: EditTarget | null): ReadonlyArray<{ value: Visibility; allowed: boolean }> {
  return AUDIENCE_ORDER.map((value) => ({ value, allowed: target === null || narrowsAudience(target.visibility, value) }))
}

/** Every rule an edit breaks: a new post's rules (the post's files count as its media) and the narrower audience. */
export function editErrors(draft: Draft, target: EditTarget, today: string): DraftErrors {
  const errors = validateDraft(draft, today)
  if (errors.content === MESSAGES.contentRequired && target.media.length > 0) delete errors.content
  if (!errors.visibility && isVisibility(draft.visibility) && !narrowsAudience(target.visibility, draft.visibility)) {
    errors.visibility = EDIT_MESSAGES.wider
  }
  return errors
}

/** Something to save: text, or files the post keeps. */
export function editHasSomething(draft: Draft, target: EditTarget): boolean {
  return draft.content.length > 0 || target.media.length > 0
}

export function withAlt(target: EditTarget, id: string, alt: string): EditTarget {
  return { ...target, media: target.media.map((m) => (m.id === id ? { ...m, alt } : m)) }
}

/** The update the Save button sends: only the fields that differ from the post as it was opened. */
export function toPostUpdate(draft: Draft, target: EditTarget): PostUpdate {
  const { original } = target
  const update: PostUpdate = {}
  const content = draft.content.trim() === '' ? '' : draft.content
  if (content !== original.content) update.content = content
  if (draft.visibility !== original.visibility && isVisibility(draft.visibility)) update.visibility = draft.visibility
  if (draft.sensitive !== original.sensitive) update.sensitive = draft.sensitive
  const reason = draft.sensitive ? draft.sensitiveReason.trim() : ''
  if (reason !== (original.sensitive ? original.sensitiveReason.trim() : '')) update.sensitiveReason = reason === '' ? null : reason
  const alts = target.media.map((m) => m.alt.trim())
  if (alts.some((alt, i) => alt !== (target.originalAlts[i] ?? '').trim())) update.alt = alts.map((a) => (a === '' ? null : a))
  return update
}
