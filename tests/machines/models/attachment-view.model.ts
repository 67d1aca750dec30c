import type { AnyEventObject } from 'xstate'
import { Network } from '../../../src/api/errors'
import type { Attachment } from '../../../src/crypto/attachments'
import { attachmentViewMachine } from '../../../src/machines/attachment-view/attachment-view.machine'
import { type MachineModel, valueAndContext, type Walk } from '../support/walks'

// A photo in a message bubble: its thumbnail downloaded and decrypted (or not), opened whole, closed, opened again.
// Walked by tests/machines/attachment-view.test.ts and printed by `npm run paths -- attachment-view`.

export const photo: Attachment = {
  blobId: '0190f5b2-0000-7000-8000-0000000000a1',
  key: 'A'.repeat(43),
  kind: 'image',
  mime: 'image/png',
  size: 16_370,
  width: 480,
  height: 320,
  thumb: { blobId: '0190f5b2-0000-7000-8000-0000000000a2', key: `${'B'.repeat(42)}A` },
}
export const offline = new Network({ message: 'Unable to reach the server.' })
export const THUMB_URL = 'blob:thumb'
export const FILE_URL = 'blob:file'

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.thumb', output: THUMB_URL },
  { type: 'xstate.error.actor.thumb', error: offline },
  { type: 'media.retry' },
  { type: 'media.open' },
  { type: 'xstate.done.actor.file', output: FILE_URL },
  { type: 'xstate.error.actor.file', error: offline },
  { type: 'media.close' },
]

export const attachmentViewModel = {
  name: 'attachment-view',
  machine: attachmentViewMachine,
  walks: [
    {
      name: 'a photo',
      options: () => ({
        events,
        input: { attachment: photo },
        serializeState: valueAndContext,
        edgesOnly: 'the downloaded thumbnail and the opened photo are context: opening, closing and failing again in any order repeat the same steps',
      }),
    },
  ],
} satisfies MachineModel<Walk>
