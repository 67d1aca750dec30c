import { assign, fromPromise, sendTo, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { isApiError, serverMessageOr } from '../../api/errors'
import { messageCalls, type Conversation, type DirectMessage, type MessagesPage, type Participant } from '../../api/messages.calls'
import { showToast } from '../toasts/notify'
import { otherParticipant } from '../conversations/conversations.rules'
import { blobIdsOf, type Attachment } from '../../crypto/attachments'
import {
  defaultMessageCrypto,
  type Opened,
  type OpenedMedia,
  type OpenedPage,
  type SafetyRequest,
  type SealRequest,
} from '../conversations/message-crypto'
import { messageAttachmentsMachine, type MessageAttachmentsReport } from '../message-attachments/message-attachments.machine'
import {
  appendOlder,
  cannotReceive,
  canChange,
  DELETE_FAILED,
  doesNotAccept,
  EDIT_FAILED,
  forgetChanged,
  hasUnreadIncoming,
  isBlank,
  MESSAGE_DELETED_TOAST,
  mergeNewest,
  sealedMessages,
  SEND_FAILED,
  upsert,
} from './conversation.rules'
import { readSeenKey, writeSeenKey } from './conversation.storage'

// One open conversation (Messages, right pane; issue 9), one actor per conversation shown. It loads the newest page
// of messages (older pages on scroll up), decrypts them through the provided `decrypt` (the server holds ciphertext
// only), and marks incoming unread messages read while it is open. The composer encrypts through the provided
// `encrypt` and sends; a refused send keeps the text for a retry ('Failed to send message'), except the server's 403
// ('{name} doesn't accept messages from you') and 409 ('{name} can't receive messages yet'), which disable the
// composer with the server's words. A member without a public key cannot be written to at all (keysMissing). Only the
// sender edits or deletes their messages. The other member's public key is compared with the one this browser last
// saw for this conversation: a different one shows a warning until accepted; the safety number of both keys is in
// context for the member to compare. Photos and videos picked in the composer live in the child 'attachments'
// (src/machines/message-attachments): a send with files first asks it to encrypt and upload them, then seals an m2
// envelope naming them; the bubbles show them from `media` (what each envelope carries).

export type ConversationEvent =
  | { type: 'conversation.retry' }
  | { type: 'conversation.older' }
  /** From the list actor (realtime): a message here was sent, edited or deleted. */
  | { type: 'conversation.changed' }
  | { type: 'message.input'; value: string }
  | { type: 'message.send' }
  | { type: 'message.edit'; id: string }
  | { type: 'edit.input'; value: string }
  | { type: 'edit.save' }
  | { type: 'edit.cancel' }
  | { type: 'message.delete'; id: string }
  /** The member accepts the other member's new key (the warning goes; the new key is remembered). */
  | { type: 'key.accept' }
  /** From the composer's attachments child: how many files it holds now. */
  | { type: 'attachments.changed'; count: number }
  | MessageAttachmentsReport

export interface ConversationInput {
  userId: string
  conversation: Conversation
}

export interface ConversationContext {
  me: string
  conversationId: string
  other: Participant | undefined
  myPublicKey: string | null
  /** Newest first, as paged. */
  messages: ReadonlyArray<DirectMessage>
  opened: Opened
  /** The photos and videos each opened message carries (by message id; none for most). */
  media: OpenedMedia
  /** How many photos and videos the composer's child 'attachments' holds. */
  fileCount: number
  /** Uploaded for the send in progress: what its envelope carries. */
  outgoing: ReadonlyArray<Attachment>
  nextCursor: string | null
  draft: string
  /** Why the composer is disabled (the server's 403/409 words), or null. */
  notice: string | null
  /** Under the composer after a failed send. */
  error: string | null
  editing: { id: string; text: string } | null
  /** The ciphertext made for the send or edit in progress. */
  envelope: string | null
  deleting: string | null
  /** The other member's key differs from the one last seen here. */
  keyChanged: boolean
  safetyNumber: string | null
  /** Marking read was refused: not retried until the history is refreshed. */
  readRefused: boolean
  stale: boolean
}

function initialContext({ userId, conversation }: ConversationInput): ConversationContext {
  const other = otherParticipant(conversation, userId)
  const theirs = other?.publicKey ?? null
  const seen = readSeenKey(conversation.id)
  return {
    me: userId,
    conversationId: conversation.id,
    other,
    myPublicKey: conversation.participants.find((p) => p.id === userId)?.publicKey ?? null,
    messages: [],
    opened: {},
    media: {},
    fileCount: 0,
    outgoing: [],
    nextCursor: null,
    draft: '',
    notice: null,
    error: null,
    editing: null,
    envelope: null,
    deleting: null,
    keyChanged: theirs !== null && seen !== null && seen !== theirs,
    safetyNumber: null,
    readRefused: false,
    stale: false,
  }
}

const nameOf = (context: ConversationContext) => context.other?.displayName ?? ''

/** A refusal that will not change on retry and disables the composer: a block or allowDMs (403), no keys (409). */
const isRefusal = (error: unknown) => isApiError(error) && (error._tag === 'Forbidden' || (error._tag === 'Invalid' && error.status === 409))

export const conversationMachine = setup({
  types: {
    context: {} as ConversationContext,
    events: {} as ConversationEvent,
    input: {} as ConversationInput,
    tags: {} as 'loading' | 'sending' | 'busy',
  },
  actors: {
    loadMessages: fromPromise<MessagesPage, { conversationId: string; cursor: string | null }>(({ input, signal }) =>
      run(messageCalls.getMessages(input.conversationId, input.cursor), signal),
    ),
    sendMessage: fromPromise<DirectMessage, { conversationId: string; content: string; attachmentIds: ReadonlyArray<string> }>(
      ({ input, signal }) => run(messageCalls.sendMessage(input.conversationId, input.content, input.attachmentIds), signal),
    ),
    editMessage: fromPromise<DirectMessage, { id: string; content: string; attachmentIds: ReadonlyArray<string> }>(({ input, signal }) =>
      run(messageCalls.editMessage(input.id, input.content, input.attachmentIds), signal),
    ),
    deleteMessage: fromPromise<void, { id: string }>(({ input, signal }) => run(messageCalls.deleteMessage(input.id), signal)),
    markRead: fromPromise<void, { conversationId: string }>(({ input, signal }) => run(messageCalls.markRead(input.conversationId), signal)),
    open: defaultMessageCrypto.open,
    encrypt: defaultMessageCrypto.encrypt,
    messageAttachments: messageAttachmentsMachine,
    safetyNumber: defaultMessageCrypto.safetyNumber,
  },
  actions: {
    showNewest: assign(({ context }, page: MessagesPage) => ({
      messages: mergeNewest(context.messages, page.messages),
      // An edit made elsewhere arrives as new ciphertext under the same id: it is decrypted again.
      opened: forgetChanged(context.opened, context.messages, page.messages),
      // A refresh keeps the cursor of the older pages already held.
      nextCursor: context.messages.length > 0 ? context.nextCursor : page.nextCursor,
      readRefused: false,
    })),
    showOlder: assign(({ context }, page: MessagesPage) => ({ messages: appendOlder(context.messages, page.messages), nextCursor: page.nextCursor })),
    addOpened: assign(({ context }, opened: OpenedPage) => ({
      opened: { ...context.opened, ...opened.texts },
      media: { ...context.media, ...opened.media },
    })),
    countFiles: assign((_, count: number) => ({ fileCount: count })),
    keepOutgoing: assign((_, outgoing: ReadonlyArray<Attachment>) => ({ outgoing })),
    askForFiles: sendTo('attachments', ({ context }) => ({ type: 'attachments.upload' as const, conversationId: context.conversationId })),
    failUpload: assign((_, error: string) => ({ error })),
    clearFiles: sendTo('attachments', { type: 'attachments.sent' as const }),
    failOpened: assign(({ context }) => ({
      opened: { ...context.opened, ...Object.fromEntries(sealedMessages(context.messages, context.opened, null).map((s) => [s.id, null])) },
    })),
    keepEnvelope: assign((_, envelope: string) => ({ envelope })),
    typeDraft: assign((_, value: string) => ({ draft: value, error: null })),
    /** The sent message on top, its text known without decrypting; the composer empties. */
    showSent: assign(({ context }, message: DirectMessage) => ({
      messages: upsert(context.messages, message),
      opened: { ...context.opened, [message.id]: context.draft },
      media: context.outgoing.length > 0 ? { ...context.media, [message.id]: context.outgoing } : context.media,
      outgoing: [],
      draft: '',
      error: null,
      envelope: null,
    })),
    failSend: assign({ error: SEND_FAILED }),
    refuseSend: assign(({ context }, error: unknown) => ({
      notice: serverMessageOr(error, isApiError(error) && error._tag === 'Forbidden' ? doesNotAccept(nameOf(context)) : cannotReceive(nameOf(context))),
    })),
    startEdit: assign(({ context }, id: string) => ({ editing: { id, text: context.opened[id] ?? '' } })),
    typeEdit: assign(({ context }, value: string) => ({ editing: context.editing ? { ...context.editing, text: value } : null })),
    showEdited: assign(({ context }, message: DirectMessage) => ({
      messages: upsert(context.messages, message),
      opened: { ...context.opened, [message.id]: context.editing?.text ?? null },
      editing: null,
      envelope: null,
    })),
    stopEdit: assign({ editing: null }),
    notifyEditFailed: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, EDIT_FAILED)),
    startDelete: assign((_, id: string) => ({ deleting: id })),
    showDeleted: assign(({ context }) => ({
      messages: context.messages.map((m) => (m.id === context.deleting ? { ...m, deleted: true, content: '' } : m)),
      deleting: null,
    })),
    notifyDeleted: ({ system }) => showToast(system, 'success', MESSAGE_DELETED_TOAST),
    notifyDeleteFailed: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, DELETE_FAILED)),
    stopDelete: assign({ deleting: null }),
    showRead: assign(({ context }) => ({ messages: context.messages.map((m) => (m.senderId !== context.me && !m.deleted ? { ...m, read: true } : m)) })),
    refuseRead: assign({ readRefused: true }),
    markStale: assign({ stale: true }),
    clearStale: assign({ stale: false }),
    showSafetyNumber: assign((_, safetyNumber: string) => ({ safetyNumber })),
    /** The first key seen for this conversation, or the accepted new one, is remembered. */
    rememberKey: ({ context }) => {
      if (context.other?.publicKey) writeSeenKey(context.conversationId, context.other.publicKey)
    },
    acceptKey: assign({ keyChanged: false }),
  },
  guards: {
    keysMissing: ({ context }) => !context.other?.publicKey,
    keyUnchanged: ({ context }) => !context.keyChanged,
    hasOlder: ({ context }) => context.nextCursor !== null,
    hasDraftOrFiles: ({ context }) => !isBlank(context.draft) || context.fileCount > 0,
    hasFiles: ({ context }) => context.fileCount > 0,
    hasEditText: ({ context }) => !isBlank(context.editing?.text ?? ''),
    canChange: ({ context }, id: string) => canChange(context.messages.find((m) => m.id === id), context.me),
    isRefusal: (_, error: unknown) => isRefusal(error),
    needsDecrypt: ({ context }) => sealedMessages(context.messages, context.opened, null).length > 0,
    needsRead: ({ context }) => !context.readRefused && hasUnreadIncoming(context.messages, context.me),
    isStale: ({ context }) => context.stale,
    hasBothKeys: ({ context }) => !!context.myPublicKey && !!context.other?.publicKey,
  },
}).createMachine({
  id: 'conversation',
  context: ({ input }) => initialContext(input),
  // The composer's photos and videos, for as long as the conversation is open.
  invoke: { id: 'attachments', src: 'messageAttachments' },
  initial: 'loading',
  on: {
    'conversation.changed': { actions: 'markStale' },
    'attachments.changed': { actions: { type: 'countFiles', params: ({ event }) => event.count } },
  },
  states: {
    loading: {
      tags: ['loading'],
      entry: 'clearStale',
      invoke: {
        id: 'loadMessages',
        src: 'loadMessages',
        input: ({ context }) => ({ conversationId: context.conversationId, cursor: null }),
        onDone: { target: 'ready', actions: { type: 'showNewest', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    failed: {
      on: { 'conversation.retry': 'loading' },
    },
    ready: {
      type: 'parallel',
      states: {
        history: {
          initial: 'idle',
          states: {
            idle: {
              always: { guard: 'isStale', target: 'refreshing' },
              on: { 'conversation.older': { guard: 'hasOlder', target: 'loadingOlder' } },
            },
            refreshing: {
              entry: 'clearStale',
              invoke: {
                id: 'refresh',
                src: 'loadMessages',
                input: ({ context }) => ({ conversationId: context.conversationId, cursor: null }),
                onDone: { target: 'idle', actions: { type: 'showNewest', params: ({ event }) => event.output } },
                onError: { target: 'idle' },
              },
            },
            loadingOlder: {
              tags: ['busy'],
              invoke: {
                id: 'loadOlder',
                src: 'loadMessages',
                input: ({ context }) => ({ conversationId: context.conversationId, cursor: context.nextCursor }),
                onDone: { target: 'idle', actions: { type: 'showOlder', params: ({ event }) => event.output } },
                onError: { target: 'idle' },
              },
            },
          },
        },
        composer: {
          initial: 'checking',
          states: {
            checking: { always: [{ guard: 'keysMissing', target: 'keysMissing' }, { target: 'idle' }] },
            /** The other member has no public key: nothing can be encrypted to them; the history still shows. */
            keysMissing: {},
            idle: {
              on: {
                'message.input': { actions: { type: 'typeDraft', params: ({ event }) => event.value } },
                'message.send': { guard: 'hasDraftOrFiles', target: 'sending' },
                'message.edit': {
                  guard: { type: 'canChange', params: ({ event }) => event.id },
                  target: 'editing',
                  actions: { type: 'startEdit', params: ({ event }) => event.id },
                },
                'message.delete': {
                  guard: { type: 'canChange', params: ({ event }) => event.id },
                  target: 'deleting',
                  actions: { type: 'startDelete', params: ({ event }) => event.id },
                },
              },
            },
            sending: {
              tags: ['sending'],
              initial: 'preparing',
              states: {
                preparing: { always: [{ guard: 'hasFiles', target: 'uploading' }, { target: 'encrypting' }] },
                /** The attachments child encrypts and uploads the files; the envelope then names them. */
                uploading: {
                  entry: 'askForFiles',
                  on: {
                    'attachments.uploaded': { target: 'encrypting', actions: { type: 'keepOutgoing', params: ({ event }) => event.attachments } },
                    'attachments.failed': {
                      target: '#conversation.ready.composer.sendFailed',
                      actions: { type: 'failUpload', params: ({ event }) => event.error },
                    },
                  },
                },
                encrypting: {
                  invoke: {
                    id: 'encrypt',
                    src: 'encrypt',
                    input: ({ context }): SealRequest => ({
                      conversationId: context.conversationId,
                      senderId: context.me,
                      otherPublicKey: context.other?.publicKey ?? '',
                      text: context.draft,
                      attachments: context.outgoing,
                    }),
                    onDone: { target: 'posting', actions: { type: 'keepEnvelope', params: ({ event }) => event.output } },
                    onError: { target: '#conversation.ready.composer.sendFailed', actions: 'failSend' },
                  },
                },
                posting: {
                  invoke: {
                    id: 'sendMessage',
                    src: 'sendMessage',
                    input: ({ context }) => ({
                      conversationId: context.conversationId,
                      content: context.envelope ?? '',
                      attachmentIds: blobIdsOf(context.outgoing),
                    }),
                    onDone: {
                      target: '#conversation.ready.composer.idle',
                      actions: [{ type: 'showSent', params: ({ event }) => event.output }, 'clearFiles'],
                    },
                    onError: [
                      {
                        guard: { type: 'isRefusal', params: ({ event }: { event: ErrorActorEvent }) => event.error },
                        target: '#conversation.ready.composer.refused',
                        actions: { type: 'refuseSend', params: ({ event }: { event: ErrorActorEvent }) => event.error },
                      },
                      { target: '#conversation.ready.composer.sendFailed', actions: 'failSend' },
                    ],
                  },
                },
              },
            },
            /** The text stays for a retry. */
            sendFailed: {
              on: {
                'message.input': { target: 'idle', actions: { type: 'typeDraft', params: ({ event }) => event.value } },
                'message.send': { guard: 'hasDraftOrFiles', target: 'sending' },
              },
            },
            /** The server will not take messages from this member to the other: the composer says why, disabled. */
            refused: {},
            editing: {
              on: {
                'edit.input': { actions: { type: 'typeEdit', params: ({ event }) => event.value } },
                'edit.save': { guard: 'hasEditText', target: 'savingEdit' },
                'edit.cancel': { target: 'idle', actions: 'stopEdit' },
              },
            },
            savingEdit: {
              tags: ['busy'],
              initial: 'encrypting',
              states: {
                encrypting: {
                  invoke: {
                    id: 'encryptEdit',
                    src: 'encrypt',
                    input: ({ context }): SealRequest => ({
                      conversationId: context.conversationId,
                      senderId: context.me,
                      otherPublicKey: context.other?.publicKey ?? '',
                      text: context.editing?.text ?? '',
                      // An edit rewrites the text; the photos and videos stay as they were.
                      attachments: context.media[context.editing?.id ?? ''] ?? [],
                    }),
                    onDone: { target: 'patching', actions: { type: 'keepEnvelope', params: ({ event }) => event.output } },
                    onError: {
                      target: '#conversation.ready.composer.editing',
                      actions: { type: 'notifyEditFailed', params: ({ event }: { event: ErrorActorEvent }) => event.error },
                    },
                  },
                },
                patching: {
                  invoke: {
                    id: 'editMessage',
                    src: 'editMessage',
                    input: ({ context }) => ({
                      id: context.editing?.id ?? '',
                      content: context.envelope ?? '',
                      attachmentIds: blobIdsOf(context.media[context.editing?.id ?? ''] ?? []),
                    }),
                    onDone: { target: '#conversation.ready.composer.idle', actions: { type: 'showEdited', params: ({ event }) => event.output } },
                    onError: {
                      target: '#conversation.ready.composer.editing',
                      actions: { type: 'notifyEditFailed', params: ({ event }: { event: ErrorActorEvent }) => event.error },
                    },
                  },
                },
              },
            },
            deleting: {
              tags: ['busy'],
              invoke: {
                id: 'deleteMessage',
                src: 'deleteMessage',
                input: ({ context }) => ({ id: context.deleting ?? '' }),
                onDone: { target: 'idle', actions: ['notifyDeleted', 'showDeleted'] },
                onError: {
                  target: 'idle',
                  actions: [{ type: 'notifyDeleteFailed', params: ({ event }: { event: ErrorActorEvent }) => event.error }, 'stopDelete'],
                },
              },
            },
          },
        },
        reading: {
          initial: 'idle',
          states: {
            idle: { always: { guard: 'needsRead', target: 'marking' } },
            marking: {
              invoke: {
                id: 'markRead',
                src: 'markRead',
                input: ({ context }) => ({ conversationId: context.conversationId }),
                onDone: { target: 'idle', actions: 'showRead' },
                onError: { target: 'idle', actions: 'refuseRead' },
              },
            },
          },
        },
        previews: {
          initial: 'idle',
          states: {
            idle: { always: { guard: 'needsDecrypt', target: 'decrypting' } },
            decrypting: {
              invoke: {
                id: 'decrypt',
                src: 'open',
                input: ({ context }) => sealedMessages(context.messages, context.opened, context.other?.publicKey ?? null),
                onDone: { target: 'idle', actions: { type: 'addOpened', params: ({ event }) => event.output } },
                onError: { target: 'idle', actions: 'failOpened' },
              },
            },
          },
        },
        safety: {
          initial: 'checking',
          states: {
            checking: { always: [{ guard: 'hasBothKeys', target: 'computing' }, { target: 'unavailable' }] },
            computing: {
              invoke: {
                id: 'safetyNumber',
                src: 'safetyNumber',
                input: ({ context }): SafetyRequest => ({ mine: context.myPublicKey ?? '', theirs: context.other?.publicKey ?? '' }),
                onDone: { target: 'shown', actions: { type: 'showSafetyNumber', params: ({ event }) => event.output } },
                onError: { target: 'unavailable' },
              },
            },
            shown: {},
            unavailable: {},
          },
        },
        key: {
          initial: 'checking',
          states: {
            checking: { always: [{ guard: 'keyUnchanged', target: 'trusted', actions: 'rememberKey' }, { target: 'changed' }] },
            trusted: {},
            /** The warning shows until the member accepts the new key. */
            changed: { on: { 'key.accept': { target: 'trusted', actions: ['acceptKey', 'rememberKey'] } } },
          },
        },
      },
    },
  },
})

export type ConversationMachine = typeof conversationMachine
export type ConversationRef = ActorRefFrom<ConversationMachine>
