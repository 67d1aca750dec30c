import { expect } from 'vitest'
import { createActor, type AnyEventObject } from 'xstate'
import {
  messageAttachmentsMachine,
  type MessageAttachmentsContext,
} from '../../src/machines/message-attachments/message-attachments.machine'
import { ATTACHMENT_MESSAGES, MAX_ATTACHMENTS } from '../../src/machines/message-attachments/message-attachments.rules'
import {
  selectAttachmentError,
  selectCanPick,
  selectHeldFiles,
  selectUploading,
} from '../../src/machines/message-attachments/message-attachments.selectors'
import { hugeVideo, messageAttachmentsModel, photoFile, sealedPhoto, textFile, tooLarge } from './models/message-attachments.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'

// The composer's photos and videos. What the member sees after each step: the previews (which files, each with a
// `blob:` URL of its own until it goes), whether more can be picked, the reason a file was refused, the spinner while
// uploading; and what the conversation hears: how many files are held, what was uploaded, why an upload failed.

/**
 * The actor runs on its own (the root, as the state graph walks it); what it would tell the conversation is
 * recorded instead of sent, event for event (the conversation's own test walks the other side).
 */
function recordingReports(heard: AnyEventObject[]) {
  return {
    reportCount: ({ context }: { context: MessageAttachmentsContext }) => void heard.push({ type: 'attachments.changed', count: context.files.length }),
    reportUploaded: ({ context }: { context: MessageAttachmentsContext }) =>
      void heard.push({ type: 'attachments.uploaded', attachments: context.uploaded ?? [] }),
    reportFailed: ({ context }: { context: MessageAttachmentsContext }) =>
      void heard.push({ type: 'attachments.failed', error: context.error ?? ATTACHMENT_MESSAGES.uploadFailed }),
  }
}

describeWalks('message attachments', messageAttachmentsModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const heard: AnyEventObject[] = []
  const machine = messageAttachmentsMachine.provide({
    actors: { sealAndUpload: calls.actor('sealAndUpload') },
    actions: recordingReports(heard),
  })
  const actor = createActor(machine, { inspect }).start()
  const revoked: string[] = []
  const realRevoke = URL.revokeObjectURL
  URL.revokeObjectURL = (url: string) => {
    revoked.push(url)
    realRevoke(url)
  }
  try {
    const replayed = replay(actor, {
      calls,
      context: false,
      mark: () => ({ heardBefore: heard.length, revokedBefore: revoked.length }),
    })
    for await (const { event, before, snapshot, startedBefore, marked: { heardBefore, revokedBefore } } of replayed) {
      const files = selectHeldFiles(snapshot)
      const told = heard.slice(heardBefore)
      const started = calls.started.slice(startedBefore)
      const gone = revoked.slice(revokedBefore)

      // Never more than four; each held file has its own preview URL; only photos and videos under the limit.
      expect(files.length).toBeLessThanOrEqual(MAX_ATTACHMENTS)
      expect(new Set(files.map((f) => f.previewUrl)).size).toBe(files.length)
      for (const f of files) expect(f.previewUrl).toMatch(/^blob:/)
      expect(files.map((f) => f.file)).not.toContain(textFile)
      expect(files.map((f) => f.file)).not.toContain(hugeVideo)
      expect(selectUploading(snapshot)).toBe(snapshot.value === 'uploading')
      expect(selectCanPick(snapshot)).toBe(snapshot.value === 'picking' && files.length < MAX_ATTACHMENTS)

      if (event.type === 'attachments.add') {
        const added = event.files as File[]
        expect(told).toEqual([{ type: 'attachments.changed', count: files.length }])
        if (added.includes(textFile)) expect(selectAttachmentError(snapshot)).toBe(ATTACHMENT_MESSAGES.notMedia('notes.txt'))
        if (added.includes(hugeVideo)) expect(selectAttachmentError(snapshot)).toBe(ATTACHMENT_MESSAGES.tooLarge('long.mp4', 'video'))
        if (added.length === 5) {
          expect(files.length).toBe(MAX_ATTACHMENTS)
          expect(selectAttachmentError(snapshot)).toBe(ATTACHMENT_MESSAGES.tooMany)
        }
        if (added.length === 1 && added[0] === photoFile && before.context.files.length < MAX_ATTACHMENTS) {
          expect(files.length).toBe(before.context.files.length + 1)
          expect(selectAttachmentError(snapshot)).toBeNull()
        }
      }
      if (event.type === 'attachments.remove') {
        const target = before.context.files.find((f) => f.id === event.id)
        expect(files.map((f) => f.id)).not.toContain(event.id)
        expect(gone, 'the removed preview is revoked').toEqual(target ? [target.previewUrl] : [])
        expect(told).toEqual([{ type: 'attachments.changed', count: files.length }])
      }
      if (event.type === 'attachments.upload') {
        if (before.context.uploaded !== null) {
          // A retry after a failed send: the blobs already uploaded are offered again, nothing is uploaded twice.
          expect(started).toEqual([])
          expect(told).toEqual([{ type: 'attachments.uploaded', attachments: before.context.uploaded }])
        } else {
          expect(started).toEqual([{ id: 'sealAndUpload', input: { conversationId: 'c-ann', files: before.context.files } }])
        }
      }
      if (event.type === 'xstate.done.actor.sealAndUpload') {
        expect(told).toEqual([{ type: 'attachments.uploaded', attachments: [sealedPhoto] }])
        expect(files).toEqual(before.context.files)
      }
      if (event.type === 'xstate.error.actor.sealAndUpload') {
        expect(told).toEqual([{ type: 'attachments.failed', error: tooLarge.message }])
        expect(selectAttachmentError(snapshot)).toBe(tooLarge.message)
        expect(files, 'the files are kept for a retry').toEqual(before.context.files)
      }
      if (event.type === 'attachments.sent') {
        expect(files).toEqual([])
        expect(gone.sort()).toEqual(before.context.files.map((f) => f.previewUrl).sort())
        expect(told).toEqual([{ type: 'attachments.changed', count: 0 }])
      }
    }
    const held = actor.getSnapshot().context.files.map((f) => f.previewUrl)
    const revokedBeforeStop = revoked.length
    actor.stop()
    expect(revoked.slice(revokedBeforeStop).sort(), 'leaving the conversation revokes every preview').toEqual(held.sort())
  } finally {
    URL.revokeObjectURL = realRevoke
  }
})

