import type { AnyEventObject } from 'xstate'
import { Invalid } from '../../../src/api/errors'
import type { Attachment } from '../../../src/crypto/attachments'
import { messageAttachmentsMachine, type MessageAttachmentsContext } from '../../../src/machines/message-attachments/message-attachments.machine'
import type { MachineModel, Walk } from '../support/walks'

// The photos and videos of a conversation's composer: pick (a photo; a text file; a video over the limit; five photos
// at once), remove, the conversation asking for them, the upload's outcome, and the message sent. Walked by
// tests/machines/message-attachments.test.ts and printed by `npm run paths -- message-attachments`.

const MB = 1024 * 1024
export const photoFile = new File([new Uint8Array(2048)], 'beach.png', { type: 'image/png' })
export const textFile = new File(['hello'], 'notes.txt', { type: 'text/plain' })
export const hugeVideo = new File([new Uint8Array(51 * MB)], 'long.mp4', { type: 'video/mp4' })

export const sealedPhoto: Attachment = {
  blobId: '0190f5b2-0000-7000-8000-0000000000a1',
  key: 'A'.repeat(43),
  kind: 'image',
  mime: 'image/png',
  size: 2048,
  width: 480,
  height: 320,
  thumb: { blobId: '0190f5b2-0000-7000-8000-0000000000a2', key: `${'B'.repeat(42)}A` },
}
export const tooLarge = new Invalid({ message: 'Attachments must be at most 50 MB', fromServer: true, status: 413, details: [] })

const events: AnyEventObject[] = [
  { type: 'attachments.add', files: [photoFile] },
  { type: 'attachments.add', files: [textFile] },
  { type: 'attachments.add', files: [hugeVideo] },
  { type: 'attachments.add', files: [photoFile, photoFile, photoFile, photoFile, photoFile] },
  { type: 'attachments.remove', id: 'f0' },
  { type: 'attachments.upload', conversationId: 'c-ann' },
  { type: 'xstate.done.actor.sealAndUpload', output: [sealedPhoto] },
  { type: 'xstate.error.actor.sealAndUpload', error: tooLarge },
  { type: 'attachments.sent' },
]

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'attachments.add') {
    const files = event.files as File[]
    return `attachments.add(${files.length > 1 ? `${files.length} photos` : (files[0]?.name ?? '')})`
  }
  if (event.type === 'attachments.remove') return `attachments.remove(${event.id as string})`
  if (event.type === 'xstate.error.actor.sealAndUpload') return 'sealAndUpload refused(413)'
  return undefined
}

/** Files by name (preview URLs and ids are fresh each time; what the member sees is which files are held). */
const shape = (s: { value: unknown; context: unknown }) => {
  const context = s.context as MessageAttachmentsContext
  return JSON.stringify({
    value: s.value,
    files: context.files.map((f) => f.file.name),
    uploaded: context.uploaded?.length ?? null,
    error: context.error,
  })
}

export const messageAttachmentsModel = {
  name: 'message-attachments',
  machine: messageAttachmentsMachine,
  walks: [
    {
      name: 'composer',
      options: () => ({ events, label, serializeState: shape, edgesOnly: 'photos are added, encrypted, uploaded and removed in any order, each a new context' }),
    },
  ],
} satisfies MachineModel<Walk>
