import { expect } from 'vitest'
import { createActor } from 'xstate'
import { attachmentViewMachine, FILE_FAILED, THUMBNAIL_FAILED } from '../../src/machines/attachment-view/attachment-view.machine'
import {
  selectFileUrl,
  selectThumbFailed,
  selectThumbUrl,
  selectViewBusy,
  selectViewError,
} from '../../src/machines/attachment-view/attachment-view.selectors'
import { attachmentViewModel, FILE_URL, photo, THUMB_URL } from './models/attachment-view.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'

// A photo or video of a message. What the member sees: a spinner while the thumbnail is fetched and decrypted, the
// thumbnail (or 'Photo unavailable' with a retry), the whole file over the conversation once opened (fetched once),
// and what was asked: the thumbnail's blob with its key, then the file's with its key and type. Every `blob:` URL it
// made is revoked when the bubble goes.

describeWalks('attachment view', attachmentViewModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = attachmentViewMachine.provide({ actors: { openBlobUrl: calls.invoked() } })
  const actor = createActor(machine, { input: { attachment: photo }, inspect }).start()
  expect(calls.started).toEqual([{ id: 'thumb', input: { blobId: photo.thumb.blobId, key: photo.thumb.key, type: '' } }])
  const revoked: string[] = []
  const realRevoke = URL.revokeObjectURL
  URL.revokeObjectURL = (url: string) => void revoked.push(url)
  try {
    for await (const { event, before, snapshot, startedBefore } of replay(actor, { calls, context: false })) {
      const started = calls.started.slice(startedBefore)

      expect(selectViewBusy(snapshot)).toBe(snapshot.value === 'loadingThumb' || snapshot.value === 'loadingFile')
      expect(selectFileUrl(snapshot)).toBe(snapshot.value === 'open' ? FILE_URL : null)
      if (event.type === 'xstate.done.actor.thumb') expect(selectThumbUrl(snapshot)).toBe(THUMB_URL)
      if (event.type === 'xstate.error.actor.thumb') {
        expect(selectThumbFailed(snapshot)).toBe(true)
        expect(selectViewError(snapshot)).toBe(THUMBNAIL_FAILED)
      }
      if (event.type === 'media.retry') expect(started.map((c) => c.id)).toEqual(['thumb'])
      if (event.type === 'media.open') {
        // Fetched once: a second look reuses the decrypted file.
        if (before.context.fileUrl === null) {
          expect(started).toEqual([{ id: 'file', input: { blobId: photo.blobId, key: photo.key, type: 'image/png' } }])
        } else {
          expect(started).toEqual([])
        }
      }
      if (event.type === 'xstate.error.actor.file') expect(selectViewError(snapshot)).toBe(FILE_FAILED)
      if (event.type === 'xstate.done.actor.file') expect(selectViewError(snapshot)).toBeNull()
    }
    const { thumbUrl, fileUrl } = actor.getSnapshot().context
    actor.stop()
    expect(revoked.sort(), 'the bubble going revokes what it showed').toEqual([thumbUrl, fileUrl].filter((u) => u !== null).sort())
  } finally {
    URL.revokeObjectURL = realRevoke
  }
})

