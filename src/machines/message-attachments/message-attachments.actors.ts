import { Effect } from 'effect'
import { fromPromise } from 'xstate'
import { run } from '../../api/calls'
import { messageCalls } from '../../api/messages.calls'
import type { Attachment } from '../../crypto/attachments'
import type { PickedFile } from './message-attachments.rules'
import { describeFile } from './thumbnails'

// The side effects of the composer's attachments, as named actors the machine invokes (tests provide fakes).

/** Loaded on first use, as the message code is (src/machines/conversations/message-crypto.ts). */
const attachmentCode = () => import('../../crypto/attachments')

export interface SealInput {
  readonly conversationId: string
  readonly files: ReadonlyArray<PickedFile>
}

/**
 * For each file, in order: its size and thumbnail (made here, in the browser), the file and the thumbnail each
 * encrypted under a fresh key, both uploaded. Answers what the envelope will carry. Any failure fails it all; blobs
 * already uploaded are never named and the server deletes them after a day.
 */
export const sealAndUpload = fromPromise<ReadonlyArray<Attachment>, SealInput>(async ({ input, signal }) => {
  const { sealBlob } = await attachmentCode()
  const sealed: Attachment[] = []
  for (const picked of input.files) {
    const described = await describeFile(picked.file, picked.kind)
    const bytes = new Uint8Array(await picked.file.arrayBuffer())
    const [file, thumb] = await Promise.all([Effect.runPromise(sealBlob(bytes)), Effect.runPromise(sealBlob(described.thumbnail))])
    const blobId = await run(messageCalls.uploadAttachment(input.conversationId, file.blob), signal)
    const thumbId = await run(messageCalls.uploadAttachment(input.conversationId, thumb.blob), signal)
    sealed.push({
      blobId,
      key: file.key,
      kind: picked.kind,
      mime: picked.mime,
      size: bytes.length,
      width: described.width,
      height: described.height,
      ...(described.durationMs === undefined ? {} : { durationMs: described.durationMs }),
      thumb: { blobId: thumbId, key: thumb.key },
    })
  }
  return sealed
})

/** Downloads a blob and decrypts it into a `blob:` URL of the given type (revoked by whoever holds it). */
export const openBlobUrl = fromPromise<string, { blobId: string; key: string; type: string }>(async ({ input, signal }) => {
  const { openBlob } = await attachmentCode()
  const encrypted = await run(messageCalls.downloadAttachment(input.blobId), signal)
  const bytes = await Effect.runPromise(openBlob(input.key, encrypted))
  return URL.createObjectURL(new Blob([bytes], input.type ? { type: input.type } : {}))
})
