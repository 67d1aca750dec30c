import { assign, setup, type ActorRefFrom, type AnyActorRef } from 'xstate'
import { revokeOnStop } from '../lib/object-urls'
import type { Attachment } from '../../crypto/attachments'
import { openBlobUrl } from '../message-attachments/message-attachments.actors'

// One photo or video of a message as its bubble shows it (docs/product.md, "Direct messages"): its thumbnail first,
// downloaded (ciphertext) and decrypted here with the key the envelope carries, shown from a `blob:` URL; the whole
// file on click, the same way, kept while the bubble lives so a second look needs no download. Both URLs are revoked
// when the actor stops (the bubble goes). Spawned per attachment by the bubble's view.

export const THUMBNAIL_FAILED = 'Photo unavailable'
export const FILE_FAILED = 'This photo or video could not be opened. Try again.'

export interface AttachmentViewContext {
  attachment: Attachment
  thumbUrl: string | null
  fileUrl: string | null
  error: string | null
}

export type AttachmentViewEvent = { type: 'media.open' } | { type: 'media.close' } | { type: 'media.retry' }

export const attachmentViewMachine = setup({
  types: {
    context: {} as AttachmentViewContext,
    events: {} as AttachmentViewEvent,
    input: {} as { attachment: Attachment },
    tags: {} as 'busy',
  },
  actors: {
    openBlobUrl,
    urls: revokeOnStop((owner: AnyActorRef) => {
      const { context } = owner.getSnapshot() as { context: AttachmentViewContext }
      return [context.thumbUrl, context.fileUrl]
    }),
  },
  actions: {
    showThumb: assign((_, thumbUrl: string) => ({ thumbUrl, error: null })),
    failThumb: assign({ error: THUMBNAIL_FAILED }),
    showFile: assign((_, fileUrl: string) => ({ fileUrl, error: null })),
    failFile: assign({ error: FILE_FAILED }),
  },
  guards: {
    fileOpened: ({ context }) => context.fileUrl !== null,
  },
}).createMachine({
  id: 'attachmentView',
  context: ({ input }) => ({ attachment: input.attachment, thumbUrl: null, fileUrl: null, error: null }),
  initial: 'loadingThumb',
  invoke: { id: 'urls', src: 'urls', input: ({ self }) => ({ owner: self }) },
  states: {
    loadingThumb: {
      tags: ['busy'],
      invoke: {
        id: 'thumb',
        src: 'openBlobUrl',
        input: ({ context }) => ({ blobId: context.attachment.thumb.blobId, key: context.attachment.thumb.key, type: '' }),
        onDone: { target: 'shown', actions: { type: 'showThumb', params: ({ event }) => event.output } },
        onError: { target: 'thumbFailed', actions: 'failThumb' },
      },
    },
    thumbFailed: { on: { 'media.retry': 'loadingThumb' } },
    shown: {
      on: { 'media.open': [{ guard: 'fileOpened', target: 'open' }, { target: 'loadingFile' }] },
    },
    loadingFile: {
      tags: ['busy'],
      invoke: {
        id: 'file',
        src: 'openBlobUrl',
        input: ({ context }) => ({ blobId: context.attachment.blobId, key: context.attachment.key, type: context.attachment.mime }),
        onDone: { target: 'open', actions: { type: 'showFile', params: ({ event }) => event.output } },
        onError: { target: 'shown', actions: 'failFile' },
      },
      on: { 'media.close': 'shown' },
    },
    /** The whole photo or the video player, over the conversation. */
    open: { on: { 'media.close': 'shown' } },
  },
})

export type AttachmentViewRef = ActorRefFrom<typeof attachmentViewMachine>
