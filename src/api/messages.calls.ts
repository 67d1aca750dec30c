import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import { idempotencyHeader } from './idempotency'
import type { components } from './contract/schema'

// Direct messages (openapi.yaml tag `messages`) and a member's public message key, in the style of calls.ts: every
// call is an Effect failing only with a typed ApiError; reads retry once on a transient failure, writes never (a
// retried send would post the message twice). Message content is always the ciphertext envelope the browser made
// (docs/security.md): these calls never see text.

type Schemas = components['schemas']

export type Conversation = Schemas['Conversation']
export type ConversationsPage = Schemas['ConversationsPage']
export type Participant = Schemas['Participant']
export type LastMessage = Schemas['LastMessage']
export type DirectMessage = Schemas['DirectMessage']
export type MessagesPage = Schemas['MessagesPage']

const cursorParam = (cursor: string | null | undefined) => (cursor ? { cursor } : {})

export function makeMessageCalls(client: ApiClient) {
  return {
    /** One page of conversations, most recent activity first; archived ones only with `archived`. */
    getConversations: (cursor?: string | null, archived = false): Effect.Effect<ConversationsPage, ApiError> =>
      query<ConversationsPage>((signal) =>
        client.GET('/messages/conversations', {
          params: { query: { ...cursorParam(cursor), ...(archived ? { archived: true } : {}) } },
          signal,
        }),
      ),

    /** Starts a conversation with a member, or reopens the one there already is. */
    startConversation: (recipientId: string): Effect.Effect<Conversation, ApiError> =>
      mutation<Schemas['ConversationResponse']>((signal) =>
        client.POST('/messages/conversations', { body: { recipientId }, signal }),
      ).pipe(Effect.map((body) => body.conversation)),

    /** One conversation, for a link to it that the loaded list does not hold (archived, or further down). */
    getConversation: (id: string): Effect.Effect<Conversation, ApiError> =>
      query<Schemas['ConversationResponse']>((signal) =>
        client.GET('/messages/conversations/{id}', { params: { path: { id } }, signal }),
      ).pipe(Effect.map((body) => body.conversation)),

    /** Deletes the conversation for the viewer only. */
    deleteConversation: (id: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/messages/conversations/{id}', { params: { path: { id } }, signal })).pipe(
        Effect.asVoid,
      ),

    /** One page of messages, newest first; the cursor pages back in time. */
    getMessages: (id: string, cursor?: string | null): Effect.Effect<MessagesPage, ApiError> =>
      query<MessagesPage>((signal) =>
        client.GET('/messages/conversations/{id}/messages', {
          params: { path: { id }, query: cursorParam(cursor) },
          signal,
        }),
      ),

    /** Sends a ciphertext envelope, naming the encrypted blobs it carries (uploaded first). */
    /** `idempotencyKey`: the submission's key (src/api/idempotency.ts); a retry of the same submission sends it again. */
    sendMessage: (
      id: string,
      content: string,
      attachmentIds: ReadonlyArray<string> = [],
      idempotencyKey: string | null = null,
    ): Effect.Effect<DirectMessage, ApiError> =>
      mutation<Schemas['DirectMessageResponse']>((signal) =>
        client.POST('/messages/conversations/{id}/messages', {
          params: { path: { id }, header: idempotencyHeader(idempotencyKey) },
          body: { content, ...(attachmentIds.length > 0 ? { attachmentIds: [...attachmentIds] } : {}) },
          signal,
        }),
      ).pipe(Effect.map((body) => body.message)),

    /** Uploads one encrypted blob (src/crypto/attachments.ts) into the conversation; answers its id. */
    uploadAttachment: (id: string, blob: Uint8Array<ArrayBuffer>): Effect.Effect<string, ApiError> =>
      mutation<Schemas['MessageAttachmentResponse']>((signal) =>
        client.POST('/messages/conversations/{id}/attachments', {
          params: { path: { id } },
          body: blob,
          bodySerializer: (bytes: unknown) => bytes as BodyInit,
          headers: { 'content-type': 'application/octet-stream' },
          signal,
        }),
      ).pipe(Effect.map((body) => body.attachment.id)),

    /** The encrypted bytes of a blob, for the browser to decrypt with the key its message's envelope carries. */
    downloadAttachment: (id: string): Effect.Effect<Uint8Array<ArrayBuffer>, ApiError> =>
      query<ArrayBuffer>((signal) =>
        client.GET('/messages/attachments/{id}', { params: { path: { id } }, parseAs: 'arrayBuffer', signal }),
      ).pipe(Effect.map((buffer) => new Uint8Array(buffer))),

    markRead: (id: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.POST('/messages/conversations/{id}/read', { params: { path: { id } }, signal })).pipe(
        Effect.asVoid,
      ),

    /** Answers the new archive state. */
    archiveConversation: (id: string, archived = true): Effect.Effect<boolean, ApiError> =>
      mutation<Schemas['ArchiveConversationResponse']>((signal) =>
        client.POST('/messages/conversations/{id}/archive', { params: { path: { id } }, body: { archived }, signal }),
      ).pipe(Effect.map((body) => body.archived)),

    /** Answers the new mute state. */
    muteConversation: (id: string, muted: boolean): Effect.Effect<boolean, ApiError> =>
      mutation<Schemas['MuteConversationResponse']>((signal) =>
        client.POST('/messages/conversations/{id}/mute', { params: { path: { id } }, body: { muted }, signal }),
      ).pipe(Effect.map((body) => body.muted)),

    /** Replaces a message's content with a new ciphertext envelope, naming the blobs it still carries. */
    editMessage: (id: string, content: string, attachmentIds: ReadonlyArray<string> = []): Effect.Effect<DirectMessage, ApiError> =>
      mutation<Schemas['DirectMessageResponse']>((signal) =>
        client.PATCH('/messages/messages/{id}', {
          params: { path: { id } },
          body: { content, ...(attachmentIds.length > 0 ? { attachmentIds: [...attachmentIds] } : {}) },
          signal,
        }),
      ).pipe(Effect.map((body) => body.message)),

    deleteMessage: (id: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/messages/messages/{id}', { params: { path: { id } }, signal })).pipe(
        Effect.asVoid,
      ),

    /** A member's public message key; null when they cannot receive messages yet. */
    getPublicKey: (userId: string): Effect.Effect<string | null, ApiError> =>
      query<Schemas['PublicKeyResponse']>((signal) =>
        client.GET('/users/{id}/public-key', { params: { path: { id: userId } }, signal }),
      ).pipe(Effect.map((body) => body.publicKey)),
  }
}

export type MessageCalls = ReturnType<typeof makeMessageCalls>

/** The app's message calls on the app's client. */
export const messageCalls: MessageCalls = makeMessageCalls(api)
