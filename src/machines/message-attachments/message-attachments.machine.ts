import { assign, enqueueActions, setup, type ActorRefFrom, type AnyActorRef, type ErrorActorEvent } from 'xstate'
import { revokeOnStop } from '../lib/object-urls'
import { serverMessageOr } from '../../api/errors'
import type { Attachment } from '../../crypto/attachments'
import { sealAndUpload } from './message-attachments.actors'
import { acceptFiles, ATTACHMENT_MESSAGES, type PickedFile } from './message-attachments.rules'

// The photos and videos picked in a conversation's composer (docs/product.md, "Direct messages"), a child of the
// conversation actor (src/machines/conversation). The member picks files (checked here: type, size, at most four)
// and may remove them before sending; each shows a local preview (a `blob:` URL of the file itself, revoked when it
// goes). When the conversation sends, it asks for the files: each is described and thumbnailed in the browser,
// encrypted with a fresh key (the thumbnail too) and uploaded, and the conversation gets what the envelope will carry
// (`attachments.uploaded`). A failure keeps the files (and the conversation keeps the text) for a retry; blobs
// uploaded for a send that then failed are offered again as they are, so a retry does not upload twice.

export interface HeldFile extends PickedFile {
  /** A `blob:` URL of the file itself, for the composer's preview. */
  readonly previewUrl: string
}

export type MessageAttachmentsEvent =
  | { type: 'attachments.add'; files: ReadonlyArray<File> }
  | { type: 'attachments.remove'; id: string }
  /** From the conversation: a send with these files begins. */
  | { type: 'attachments.upload'; conversationId: string }
  /** From the conversation: the message carrying them is sent; the composer empties. */
  | { type: 'attachments.sent' }

/** What the parent conversation hears. */
export type MessageAttachmentsReport =
  | { type: 'attachments.changed'; count: number }
  | { type: 'attachments.uploaded'; attachments: ReadonlyArray<Attachment> }
  | { type: 'attachments.failed'; error: string }

export interface MessageAttachmentsContext {
  files: ReadonlyArray<HeldFile>
  /** Uploaded for the send in progress (or one that failed after uploading), until the files change. */
  uploaded: ReadonlyArray<Attachment> | null
  /** Why files were refused or the upload failed; cleared by the next change. */
  error: string | null
  conversationId: string
  /** For the composer's own file ids. */
  picked: number
}

/** Tells the conversation; an actor running on its own (the state graph the tests walk) has no one to tell. */
const report = (make: (args: { context: MessageAttachmentsContext }) => MessageAttachmentsReport) =>
  enqueueActions<MessageAttachmentsContext, MessageAttachmentsEvent, undefined, MessageAttachmentsEvent, never, never, never, never, never>(
    ({ context, self, enqueue }) => {
      if (self._parent) enqueue.sendParent(make({ context }))
    },
  )

const revoke = (files: ReadonlyArray<HeldFile>) => {
  for (const file of files) URL.revokeObjectURL(file.previewUrl)
}

export const messageAttachmentsMachine = setup({
  types: {
    context: {} as MessageAttachmentsContext,
    events: {} as MessageAttachmentsEvent,
    tags: {} as 'busy',
  },
  actors: {
    sealAndUpload,
    previews: revokeOnStop((owner: AnyActorRef) => (owner.getSnapshot() as { context: MessageAttachmentsContext }).context.files.map((f) => f.previewUrl)),
  },
  actions: {
    addFiles: assign(({ context }, files: ReadonlyArray<File>) => {
      const { accepted, error } = acceptFiles(context.files.length, files, (i) => `f${context.picked + i}`)
      return {
        files: [...context.files, ...accepted.map((f) => ({ ...f, previewUrl: URL.createObjectURL(f.file) }))],
        picked: context.picked + files.length,
        error,
        uploaded: accepted.length > 0 ? null : context.uploaded,
      }
    }),
    removeFile: assign(({ context }, id: string) => {
      revoke(context.files.filter((f) => f.id === id))
      return { files: context.files.filter((f) => f.id !== id), error: null, uploaded: null }
    }),
    clearFiles: assign(({ context }) => {
      revoke(context.files)
      return { files: [], uploaded: null, error: null }
    }),
    startUpload: assign((_, conversationId: string) => ({ conversationId, error: null })),
    keepUploaded: assign((_, uploaded: ReadonlyArray<Attachment>) => ({ uploaded })),
    failUpload: assign((_, error: unknown) => ({ error: serverMessageOr(error, ATTACHMENT_MESSAGES.uploadFailed) })),
    reportCount: report(({ context }) => ({ type: 'attachments.changed', count: context.files.length })),
    reportUploaded: report(({ context }) => ({ type: 'attachments.uploaded', attachments: context.uploaded ?? [] })),
    reportFailed: report(({ context }) => ({ type: 'attachments.failed', error: context.error ?? ATTACHMENT_MESSAGES.uploadFailed })),
  },
  guards: {
    alreadyUploaded: ({ context }) => context.uploaded !== null,
  },
}).createMachine({
  id: 'messageAttachments',
  context: { files: [], uploaded: null, error: null, conversationId: '', picked: 0 },
  initial: 'picking',
  invoke: { id: 'previews', src: 'previews', input: ({ self }) => ({ owner: self }) },
  states: {
    /** Files may be added and removed; a send asks for them. */
    picking: {
      on: {
        'attachments.add': { actions: [{ type: 'addFiles', params: ({ event }) => event.files }, 'reportCount'] },
        'attachments.remove': { actions: [{ type: 'removeFile', params: ({ event }) => event.id }, 'reportCount'] },
        'attachments.upload': [
          { guard: 'alreadyUploaded', actions: 'reportUploaded' },
          { target: 'uploading', actions: { type: 'startUpload', params: ({ event }) => event.conversationId } },
        ],
        'attachments.sent': { actions: ['clearFiles', 'reportCount'] },
      },
    },
    /** Thumbnails, encryption and uploads, one file after another; the files cannot change meanwhile. */
    uploading: {
      tags: ['busy'],
      invoke: {
        id: 'sealAndUpload',
        src: 'sealAndUpload',
        input: ({ context }) => ({ conversationId: context.conversationId, files: context.files }),
        onDone: {
          target: 'picking',
          actions: [{ type: 'keepUploaded', params: ({ event }) => event.output }, 'reportUploaded'],
        },
        onError: {
          target: 'picking',
          actions: [{ type: 'failUpload', params: ({ event }: { event: ErrorActorEvent }) => event.error }, 'reportFailed'],
        },
      },
    },
  },
})

export type MessageAttachmentsMachine = typeof messageAttachmentsMachine
export type MessageAttachmentsRef = ActorRefFrom<MessageAttachmentsMachine>
