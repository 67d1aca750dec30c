import { Effect } from 'effect'
// zod/mini, as the rest of the app: classic zod compiles object checks with `new Function`, which the CSP (no
// 'unsafe-eval') refuses and reports as a violation.
import * as z from 'zod/mini'
import {
  ATTACHMENT_DIMENSION_MAX,
  ATTACHMENT_DURATION_MS_MAX,
  ATTACHMENT_TYPES,
  MESSAGE_ATTACHMENTS_MAX,
  type AttachmentMime,
} from '../api/contract/encryption'
import { concat, fromBase64url, randomBytes, toBase64url, utf8 } from './encoding'
import { UndecryptableMessage, type CryptoUnavailable } from './errors'
import { attempt, certain } from './webcrypto'

// A photo or video of a direct message, encrypted in the browser before it is uploaded (docs/security.md,
// "Attachments"). Every file and every thumbnail gets its own fresh AES-256-GCM key; the keys travel only inside the
// message's envelope (m2, ./messages.ts), which the conversation key encrypts. The server stores the blob:
//
//   0x01 || iv (12 random bytes) || ciphertext || tag (16 bytes)
//
// - 0x01: the blob format's version.
// - AAD: the fixed label "wren/dm/attachment/1". Nothing else needs binding: a key is used for one file only, so a
//   blob swapped by the server for another fails to decrypt under the key the envelope names.
// - The IV is random even though the key is used once: it costs 12 bytes and keeps the format safe should a key
//   ever be reused by a bug.

const VERSION = 1
const IV_BYTES = 12
const TAG_BYTES = 16
const KEY_BYTES = 32
const LABEL = utf8('wren/dm/attachment/1')

/** A file's fresh key and the blob to upload. */
export interface SealedBlob {
  /** The raw AES-256 key, base64url (43 characters): goes into the envelope, never anywhere else. */
  readonly key: string
  readonly blob: Uint8Array<ArrayBuffer>
}

const rejected = () => new UndecryptableMessage({ message: 'This attachment cannot be opened.', reason: 'rejected' })
const malformed = () => new UndecryptableMessage({ message: 'This attachment cannot be opened.', reason: 'malformed' })

/** Encrypts one file under `rawKey` with `iv` (both given only by known-answer tests; fresh and random otherwise). */
export function sealBlobWith(
  rawKey: Uint8Array<ArrayBuffer>,
  iv: Uint8Array<ArrayBuffer>,
  bytes: Uint8Array<ArrayBuffer>,
): Effect.Effect<SealedBlob, CryptoUnavailable> {
  return Effect.gen(function* () {
    const key = yield* certain((s) => s.importKey('raw', rawKey, 'AES-GCM', false, ['encrypt']))
    const ciphertext = yield* certain((s) => s.encrypt({ name: 'AES-GCM', iv, additionalData: LABEL }, key, bytes))
    return { key: toBase64url(rawKey), blob: concat(new Uint8Array([VERSION]), iv, new Uint8Array(ciphertext)) }
  })
}

/** Encrypts one file under a fresh key. */
export function sealBlob(bytes: Uint8Array<ArrayBuffer>): Effect.Effect<SealedBlob, CryptoUnavailable> {
  return sealBlobWith(randomBytes(KEY_BYTES), randomBytes(IV_BYTES), bytes)
}

/** Decrypts a blob with the key its message's envelope carries. */
export function openBlob(
  keyText: string,
  blob: Uint8Array<ArrayBuffer>,
): Effect.Effect<Uint8Array<ArrayBuffer>, UndecryptableMessage | CryptoUnavailable> {
  return Effect.gen(function* () {
    const rawKey = fromBase64url(keyText)
    if (rawKey?.length !== KEY_BYTES || blob.length < 1 + IV_BYTES + TAG_BYTES || blob[0] !== VERSION) {
      return yield* Effect.fail(malformed())
    }
    const key = yield* attempt((s) => s.importKey('raw', rawKey, 'AES-GCM', false, ['decrypt']), malformed)
    const iv = blob.slice(1, 1 + IV_BYTES)
    const plaintext = yield* attempt(
      (s) => s.decrypt({ name: 'AES-GCM', iv, additionalData: LABEL }, key, blob.slice(1 + IV_BYTES)),
      rejected,
    )
    return new Uint8Array(plaintext)
  })
}

const blobId = z.uuid()
const blobKey = z.string().check(z.regex(/^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/))
const dimension = z.int().check(z.minimum(1), z.maximum(ATTACHMENT_DIMENSION_MAX))
const mimes = Object.keys(ATTACHMENT_TYPES) as [AttachmentMime, ...AttachmentMime[]]

/** One attachment as the envelope carries it (the thumbnail is a small WebP or JPEG the sender's browser made). */
export const attachmentSchema = z
  .strictObject({
    blobId,
    key: blobKey,
    kind: z.enum(['image', 'video']),
    mime: z.enum(mimes),
    size: z.int().check(z.minimum(1), z.maximum(Number.MAX_SAFE_INTEGER)),
    width: dimension,
    height: dimension,
    durationMs: z.optional(z.int().check(z.minimum(0), z.maximum(ATTACHMENT_DURATION_MS_MAX))),
    thumb: z.strictObject({ blobId, key: blobKey }),
  })
  .check(z.refine((a) => ATTACHMENT_TYPES[a.mime] === a.kind, { message: 'kind does not match the type' }))

export type Attachment = z.infer<typeof attachmentSchema>

export const attachmentsSchema = z.array(attachmentSchema).check(z.minLength(1), z.maxLength(MESSAGE_ATTACHMENTS_MAX))

/** The blob ids a message carries (files and thumbnails), as the send names them to the server. */
export function blobIdsOf(attachments: ReadonlyArray<Attachment>): string[] {
  return attachments.flatMap((a) => [a.blobId, a.thumb.blobId])
}
