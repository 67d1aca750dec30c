import { and, assign, fromPromise, sendTo, setup, stateIn, type ActorRefFrom, type DoneActorEvent, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { IDEMPOTENCY_KEY_IN_PROGRESS } from '../../api/contract/idempotency'
import { isApiError, serverMessageOr } from '../../api/errors'
import { newIdempotencyKey } from '../../api/idempotency'
import { messageCalls, type Conversation, type DirectMessage, type MessagesPage, type Participant } from '../../api/messages.calls'
import { showToast } from '../toasts/notify'
import { otherParticipant } from '../conversations/conversations.rules'
import { blobIdsOf, type Attachment } from '../../crypto/attachments'
import {
  defaultMessageCrypto,
  type Opened,
  type OpenedMedia,
  type OpenedPage,
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
import { TRUST_SAVE_FAILED, UNVERIFIED_TOAST, VERIFIED_TOAST } from './conversation.trust'
import { defaultTrustActors, type TrustCheck, type TrustCheckRequest, type TrustSave } from './conversation.trust-actors'
import { shownName } from '../lib/shown-name'

// One open conversation (Messages, right pane), one actor per conversation shown. It loads the newest page
// of messages (older pages on scroll up), decrypts them through the provided `decrypt` (the server holds ciphertext
// only), and marks incoming unread messages read while it is open. The composer encrypts through the provided
// `encrypt` and sends; a refused send keeps the text for a retry ('Failed to send message'), except the server's 403
// ('{name} doesn't accept messages from you') and 409 ('{name} can't receive messages yet'), which disable the
// composer with the server's words. A member without a public key cannot be written to at all (keysMissing). Only the
// sender edits or deletes their messages.
//
// Keys (docs/security.md, "Safety numbers and key changes"): nothing is encrypted or sent until the keys region says
// `trusted`. Its check (`checkTrust`) compares the server's idea of the member's own key with the key in this
// browser's store (a difference: `ownKeyMismatch`, a blocking alert, never sendable), then the other member's key with
// the member's sealed trust record for them, kept on the server for every device but sealed in the browser: none yet
// is trust on first use (recorded, sendable); the same key is `trusted` (verified or not); another key is `changed`,
// sendable only after `key.acknowledge` re-seals the record with it, unverified. The safety number is computed from
// the local own key, so a server that swaps keys cannot make both members see the same number. Photos and videos picked in the composer live in the child
// 'attachments' (src/machines/message-attachments): a send with files first asks it to encrypt and upload them, then
// seals an m2 envelope naming them; the bubbles show them from `media` (what each envelope carries).
//
// Each send carries an Idempotency-Key, made when the member sends. A failed send keeps its key, its envelope and its
// uploaded files, so sending again posts exactly the same request and the server answers the first message if it
// went out; typing or changing the files makes the next send a new submission (new key, new envelope).

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
  /** The member accepts the other member's changed key: the record is re-sealed with it, unverified. */
  | { type: 'key.acknowledge' }
  /** After comparing the safety number: mark the other member Verified, or take the mark back. */
  | { type: 'key.verify' }
  | { type: 'key.unverify' }
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
  /** The member's own key as the server reports it: compared with the key in this browser, never used to encrypt. */
  reportedOwnKey: string | null
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
  /** The ciphertext made for the send or edit in progress; kept after a failed send for its retry. */
  envelope: string | null
  /** The send's Idempotency-Key: made on send, kept while the same submission is retried, dropped by any change. */
  idempotencyKey: string | null
  deleting: string | null
  /** From this browser's own key and the other member's key as given; null until checked. */
  safetyNumber: string | null
  /** The member marked the other member's current key Verified. */
  verified: boolean
  /** The key that changed had been verified (the stronger warning). */
  wasVerified: boolean
  /** When the other member's current key came into use, for a changed key. */
  keyChangedAt: string | null
  /** Marking read was refused: not retried until the history is refreshed. */
  readRefused: boolean
  stale: boolean
}

function initialContext({ userId, conversation }: ConversationInput): ConversationContext {
  const other = otherParticipant(conversation, userId)
  return {
    me: userId,
    conversationId: conversation.id,
    other,
    reportedOwnKey: conversation.participants.find((p) => p.id === userId)?.publicKey ?? null,
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
    idempotencyKey: null,
    deleting: null,
    safetyNumber: null,
    verified: false,
    wasVerified: false,
    keyChangedAt: null,
    readRefused: false,
    stale: false,
  }
}

/** The trust record to save: the other member's key as the server gives it now, verified or not. */
const trustSave = (context: ConversationContext, verified: boolean): TrustSave => ({
  me: context.me,
  contactId: context.other?.id ?? '',
  contactKey: context.other?.publicKey ?? '',
  verified,
})

const nameOf = (context: ConversationContext) => shownName(context.other)

/**
 * A refusal that will not change on retry and disables the composer: a block or allowDMs (403), no keys (409). The
 * 409 of a first try still running is not one: that send fails for a retry like any other.
 */
const isRefusal = (error: unknown) =>
  isApiError(error) &&
  (error._tag === 'Forbidden' || (error._tag === 'Invalid' && error.status === 409 && error.message !== IDEMPOTENCY_KEY_IN_PROGRESS))

/** What the sendMessage actor posts: the envelope, the attachments it names, and the submission's key. */
export interface MessageSubmission {
  conversationId: string
  content: string
  attachmentIds: ReadonlyArray<string>
  idempotencyKey: string | null
}

/** Any change to what is being sent (text, files) makes the next send a new submission. */
const NEW_SUBMISSION = { idempotencyKey: null, envelope: null, outgoing: [] } as const

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
    sendMessage: fromPromise<DirectMessage, MessageSubmission>(({ input, signal }) =>
      run(messageCalls.sendMessage(input.conversationId, input.content, input.attachmentIds, input.idempotencyKey), signal),
    ),
    editMessage: fromPromise<DirectMessage, { id: string; content: string; attachmentIds: ReadonlyArray<string> }>(({ input, signal }) =>
      run(messageCalls.editMessage(input.id, input.content, input.attachmentIds), signal),
    ),
    deleteMessage: fromPromise<void, { id: string }>(({ input, signal }) => run(messageCalls.deleteMessage(input.id), signal)),
    markRead: fromPromise<void, { conversationId: string }>(({ input, signal }) => run(messageCalls.markRead(input.conversationId), signal)),
    open: defaultMessageCrypto.open,
    encrypt: defaultMessageCrypto.encrypt,
    checkTrust: defaultTrustActors.checkTrust,
    saveTrust: defaultTrustActors.saveTrust,
    messageAttachments: messageAttachmentsMachine,
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
    countFiles: assign(({ context }, count: number) =>
      count === context.fileCount ? {} : { fileCount: count, ...NEW_SUBMISSION },
    ),
    /** A new send gets a key (and is sealed afresh); a retry of the failed one keeps its key, envelope and uploads. */
    keySubmission: assign(({ context }) =>
      context.idempotencyKey ? {} : { idempotencyKey: newIdempotencyKey(), envelope: null, outgoing: [] },
    ),
    keepOutgoing: assign((_, outgoing: ReadonlyArray<Attachment>) => ({ outgoing })),
    askForFiles: sendTo('attachments', ({ context }) => ({ type: 'attachments.upload' as const, conversationId: context.conversationId })),
    failUpload: assign((_, error: string) => ({ error })),
    clearFiles: sendTo('attachments', { type: 'attachments.sent' as const }),
    failOpened: assign(({ context }) => ({
      opened: { ...context.opened, ...Object.fromEntries(sealedMessages(context.messages, context.opened, null).map((s) => [s.id, null])) },
    })),
    keepEnvelope: assign((_, envelope: string) => ({ envelope })),
    typeDraft: assign((_, value: string) => ({ draft: value, error: null, ...NEW_SUBMISSION })),
    /** The sent message on top, its text known without decrypting; the composer empties. */
    showSent: assign(({ context }, message: DirectMessage) => ({
      messages: upsert(context.messages, message),
      opened: { ...context.opened, [message.id]: context.draft },
      media: context.outgoing.length > 0 ? { ...context.media, [message.id]: context.outgoing } : context.media,
      outgoing: [],
      draft: '',
      error: null,
      envelope: null,
      idempotencyKey: null,
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
    showCheck: assign((_, check: TrustCheck) => ({
      safetyNumber: check.safetyNumber,
      verified: check.verdict.kind === 'trusted' && check.verdict.verified,
      wasVerified: check.verdict.kind === 'changed' && check.verdict.wasVerified,
      keyChangedAt: check.changedAt,
    })),
    acknowledged: assign({ verified: false, wasVerified: false, keyChangedAt: null }),
    markVerified: assign({ verified: true }),
    markUnverified: assign({ verified: false }),
    notifyVerified: ({ system }) => showToast(system, 'success', VERIFIED_TOAST),
    notifyUnverified: ({ system }) => showToast(system, 'success', UNVERIFIED_TOAST),
    notifyTrustSaveFailed: ({ system }) => showToast(system, 'error', TRUST_SAVE_FAILED),
  },
  guards: {
    keysMissing: ({ context }) => !context.other?.publicKey,
    hasOlder: ({ context }) => context.nextCursor !== null,
    hasDraftOrFiles: ({ context }) => !isBlank(context.draft) || context.fileCount > 0,
    hasFiles: ({ context }) => context.fileCount > 0,
    /** Retrying a send whose envelope is made: post the very same request again. */
    isSealedRetry: ({ context }) => context.idempotencyKey !== null && context.envelope !== null,
    hasEditText: ({ context }) => !isBlank(context.editing?.text ?? ''),
    canChange: ({ context }, id: string) => canChange(context.messages.find((m) => m.id === id), context.me),
    isRefusal: (_, error: unknown) => isRefusal(error),
    needsDecrypt: ({ context }) => sealedMessages(context.messages, context.opened, null).length > 0,
    needsRead: ({ context }) => !context.readRefused && hasUnreadIncoming(context.messages, context.me),
    isStale: ({ context }) => context.stale,
    isOwnKeyMismatch: (_, check: TrustCheck) => check.verdict.kind === 'ownKeyMismatch',
    isChanged: (_, check: TrustCheck) => check.verdict.kind === 'changed',
    isVerified: ({ context }) => context.verified,
    isUnverified: ({ context }) => !context.verified,
    /** Only a trusted key is encrypted to: never while checking, on an own-key mismatch or a changed key. */
    keyTrusted: stateIn({ ready: { keys: 'trusted' } }),
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
                'message.send': { guard: and(['hasDraftOrFiles', 'keyTrusted']), target: 'sending', actions: 'keySubmission' },
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
                preparing: {
                  always: [{ guard: 'isSealedRetry', target: 'posting' }, { guard: 'hasFiles', target: 'uploading' }, { target: 'encrypting' }],
                },
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
                    input: ({ context }): MessageSubmission => ({
                      conversationId: context.conversationId,
                      content: context.envelope ?? '',
                      attachmentIds: blobIdsOf(context.outgoing),
                      idempotencyKey: context.idempotencyKey,
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
            /** The text stays for a retry: the same submission, sent again with its key and envelope. */
            sendFailed: {
              on: {
                'message.input': { target: 'idle', actions: { type: 'typeDraft', params: ({ event }) => event.value } },
                'message.send': { guard: and(['hasDraftOrFiles', 'keyTrusted']), target: 'sending', actions: 'keySubmission' },
              },
            },
            /** The server will not take messages from this member to the other: the composer says why, disabled. */
            refused: {},
            editing: {
              on: {
                'edit.input': { actions: { type: 'typeEdit', params: ({ event }) => event.value } },
                'edit.save': { guard: and(['hasEditText', 'keyTrusted']), target: 'savingEdit' },
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
        keys: {
          initial: 'start',
          states: {
            start: { always: [{ guard: 'keysMissing', target: 'unavailable' }, { target: 'checking' }] },
            /** The own key against the server's idea of it, the other's key against the member's sealed record. */
            checking: {
              invoke: {
                id: 'checkTrust',
                src: 'checkTrust',
                input: ({ context }): TrustCheckRequest => ({
                  me: context.me,
                  contactId: context.other?.id ?? '',
                  theirKey: context.other?.publicKey ?? '',
                  reportedOwnKey: context.reportedOwnKey,
                }),
                onDone: [
                  {
                    guard: { type: 'isOwnKeyMismatch', params: ({ event }: { event: DoneActorEvent<TrustCheck> }) => event.output },
                    target: 'ownKeyMismatch',
                    actions: { type: 'showCheck', params: ({ event }: { event: DoneActorEvent<TrustCheck> }) => event.output },
                  },
                  {
                    guard: { type: 'isChanged', params: ({ event }: { event: DoneActorEvent<TrustCheck> }) => event.output },
                    target: 'changed',
                    actions: { type: 'showCheck', params: ({ event }: { event: DoneActorEvent<TrustCheck> }) => event.output },
                  },
                  { target: 'trusted', actions: { type: 'showCheck', params: ({ event }: { event: DoneActorEvent<TrustCheck> }) => event.output } },
                ],
                onError: { target: 'unavailable' },
              },
            },
            /** The server reports another key as the member's own: a blocking alert; nothing is ever sent here. */
            ownKeyMismatch: {},
            /** The other member's key is not the one the member accepted: sending waits for an acknowledgement. */
            changed: { on: { 'key.acknowledge': 'acknowledging' } },
            acknowledging: {
              invoke: {
                id: 'acknowledgeKey',
                src: 'saveTrust',
                input: ({ context }) => trustSave(context, false),
                onDone: { target: 'trusted', actions: 'acknowledged' },
                onError: { target: 'changed', actions: 'notifyTrustSaveFailed' },
              },
            },
            trusted: {
              initial: 'idle',
              states: {
                idle: {
                  on: {
                    'key.verify': { guard: 'isUnverified', target: 'verifying' },
                    'key.unverify': { guard: 'isVerified', target: 'unverifying' },
                  },
                },
                verifying: {
                  invoke: {
                    id: 'verifyKey',
                    src: 'saveTrust',
                    input: ({ context }) => trustSave(context, true),
                    onDone: { target: 'idle', actions: ['markVerified', 'notifyVerified'] },
                    onError: { target: 'idle', actions: 'notifyTrustSaveFailed' },
                  },
                },
                unverifying: {
                  invoke: {
                    id: 'unverifyKey',
                    src: 'saveTrust',
                    input: ({ context }) => trustSave(context, false),
                    onDone: { target: 'idle', actions: ['markUnverified', 'notifyUnverified'] },
                    onError: { target: 'idle', actions: 'notifyTrustSaveFailed' },
                  },
                },
              },
            },
            /** No key to check: the other member has none, or this browser has no key of the member's. */
            unavailable: {},
          },
        },
      },
    },
  },
})

export type ConversationMachine = typeof conversationMachine
export type ConversationRef = ActorRefFrom<ConversationMachine>
