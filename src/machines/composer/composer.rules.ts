import { LIMITS } from '../../api/contract/limits'
import { VISIBILITIES, type Visibility } from '../../api/posts.calls'
import { pollDraftProblem, type PollDraft } from './poll.rules'

// The composer's rules (docs/product.md, "Writing a post", "Media" and "Limits"), as plain functions the machine, its selectors and its tests share.
// The limits are the product's (src/api/contract/limits.ts), which the server enforces too.

export const MAX_POST_LENGTH = LIMITS.postLength
export const MAX_MEDIA = LIMITS.postMedia
export const MAX_REASON_LENGTH = LIMITS.sensitiveReasonLength
export const MAX_ALT_LENGTH = LIMITS.altTextLength
/** The counter stands out this many characters before the limit. */
const NEAR_LIMIT = 50

export const MESSAGES = {
  tooLong: `Maximum ${MAX_POST_LENGTH} characters`,
  contentRequired: 'Content is required when no media is attached',
  tooManyFiles: `Maximum ${MAX_MEDIA} media files allowed`,
  notMedia: 'Only images and videos can be attached',
  visibility: 'Please select a valid visibility option',
  scheduleInPast: 'Schedule date cannot be earlier than today',
  posted: 'Post created!',
  replied: 'Reply posted!',
  failed: 'An error occurred while creating the post',
  /** The server is still handling the first try of this very post (its Idempotency-Key's 409). */
  stillSending: 'Your post is still on its way. Try again in a moment.',
} as const

export type MediaKind = 'image' | 'video'

/** One attached file. `id` is the composer's own (stable across removals), for keys and alt text. */
export interface Attachment {
  readonly id: string
  readonly file: File
  readonly kind: MediaKind
  readonly alt: string
}

export interface Draft {
  content: string
  /** A string, not Visibility: the select's value is checked like any input before it is sent. */
  visibility: string
  sensitive: boolean
  sensitiveReason: string
  media: ReadonlyArray<Attachment>
  /** yyyy-mm-dd and hh:mm as the date and time inputs give them; '' when not set. Validated, never sent. */
  scheduleDate: string
  scheduleTime: string
  /** The poll being written (poll.rules.ts), or null. */
  poll: PollDraft | null
}

export interface DraftErrors {
  content?: string
  media?: string
  visibility?: string
  schedule?: string
  poll?: string
}

export const EMPTY_DRAFT: Draft = {
  content: '',
  visibility: 'public',
  sensitive: false,
  sensitiveReason: '',
  media: [],
  scheduleDate: '',
  scheduleTime: '',
  poll: null,
}

/** Length as members count it: code points, so an emoji is one character (the server counts the same way). */
export function postLength(text: string): number {
  let n = 0
  for (const _ of text) n += 1
  return n
}

/** The counter's emphasis: quiet, then plain within 50 characters of the limit, then an error past it. */
export type LengthLevel = 'ok' | 'near' | 'over'

export function lengthLevel(length: number): LengthLevel {
  if (length > MAX_POST_LENGTH) return 'over'
  if (length > MAX_POST_LENGTH - NEAR_LIMIT) return 'near'
  return 'ok'
}

/** Whether the draft carries as many files as a post may (the media button says so in its title). */
export function isMediaFull(draft: Pick<Draft, 'media'>): boolean {
  return draft.media.length >= MAX_MEDIA
}

/** The kind of a picked file by its declared type; the server checks the bytes again. */
export function mediaKind(file: { type: string }): MediaKind | null {
  if (file.type.startsWith('image/')) return 'image'
  if (file.type.startsWith('video/')) return 'video'
  return null
}

export function isVisibility(value: string): value is Visibility {
  return (VISIBILITIES as ReadonlyArray<string>).includes(value)
}

/** The post button's rule: something to send (disabled with neither content nor media). */
export function hasSomething(draft: Draft): boolean {
  return draft.content.length > 0 || draft.media.length > 0
}

/** Every rule a draft breaks, by field; empty when it can be sent. `today` is the member's local yyyy-mm-dd. */
export function validateDraft(draft: Draft, today: string): DraftErrors {
  const errors: DraftErrors = {}
  if (postLength(draft.content) > MAX_POST_LENGTH) errors.content = MESSAGES.tooLong
  else if (draft.content.trim() === '' && draft.media.length === 0) errors.content = MESSAGES.contentRequired
  if (draft.media.length > MAX_MEDIA) errors.media = MESSAGES.tooManyFiles
  if (!isVisibility(draft.visibility)) errors.visibility = MESSAGES.visibility
  // yyyy-mm-dd strings compare in date order.
  if (draft.scheduleDate !== '' && draft.scheduleDate < today) errors.schedule = MESSAGES.scheduleInPast
  const poll = pollDraftProblem(draft.poll, draft.media.length)
  if (poll) errors.poll = poll
  return errors
}

export function isValid(errors: DraftErrors): boolean {
  return Object.keys(errors).length === 0
}

/** The member's local date as yyyy-mm-dd (what a date input holds). */
export function localDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}
