import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  MESSAGE_ATTACHMENTS_MAX,
  type AttachmentKind,
  type AttachmentMime,
} from '../../api/contract/encryption'

// The rules of photos and videos in a direct message (docs/product.md, "Direct messages"), checked in the browser
// before anything is encrypted: the server sees only encrypted blobs and cannot tell a photo from a video, so the
// type and the per-kind size are the browser's to check (the server bounds every blob by the video limit).

export const MAX_ATTACHMENTS = MESSAGE_ATTACHMENTS_MAX

const MB = 1024 * 1024

export const ATTACHMENT_MESSAGES = {
  tooMany: `You can attach up to ${MESSAGE_ATTACHMENTS_MAX} photos or videos`,
  notMedia: (name: string) => `${name} can't be sent: only JPEG, PNG, WebP or GIF photos and MP4, WebM or MOV videos`,
  tooLarge: (name: string, kind: AttachmentKind) =>
    `${name} is too large: ${kind === 'image' ? 'photos' : 'videos'} can be at most ${ATTACHMENT_MAX_BYTES[kind] / MB} MB`,
  uploadFailed: 'Could not send the photos or videos. Try again.',
  unreadable: (name: string) => `${name} can't be read as a photo or video`,
} as const

/** One picked file, accepted. `id` is the composer's own (stable across removals). */
export interface PickedFile {
  readonly id: string
  readonly file: File
  readonly kind: AttachmentKind
  readonly mime: AttachmentMime
}

export const isAttachmentMime = (type: string): type is AttachmentMime => type in ATTACHMENT_TYPES

/**
 * Which of the newly picked files can join the `held` ones, and why the others cannot (the first reason, shown under
 * the composer). Files past the count limit are left out; the ones before them are kept.
 */
export function acceptFiles(
  held: number,
  files: ReadonlyArray<File>,
  nextId: (index: number) => string,
): { accepted: PickedFile[]; error: string | null } {
  const accepted: PickedFile[] = []
  let error: string | null = null
  for (const [index, file] of files.entries()) {
    if (!isAttachmentMime(file.type)) {
      error ??= ATTACHMENT_MESSAGES.notMedia(file.name)
      continue
    }
    const kind = ATTACHMENT_TYPES[file.type]
    if (file.size > ATTACHMENT_MAX_BYTES[kind]) {
      error ??= ATTACHMENT_MESSAGES.tooLarge(file.name, kind)
      continue
    }
    if (held + accepted.length >= MESSAGE_ATTACHMENTS_MAX) {
      error ??= ATTACHMENT_MESSAGES.tooMany
      break
    }
    accepted.push({ id: nextId(index), file, kind, mime: file.type })
  }
  return { accepted, error }
}

/** A message's preview in the conversation list when it is only photos or videos: 'Photo', '2 videos', ... */
export function attachmentsPreview(kinds: ReadonlyArray<AttachmentKind>): string {
  const n = kinds.length
  if (kinds.every((k) => k === 'image')) return n === 1 ? 'Photo' : `${n} photos`
  if (kinds.every((k) => k === 'video')) return n === 1 ? 'Video' : `${n} videos`
  return `${n} photos and videos`
}
