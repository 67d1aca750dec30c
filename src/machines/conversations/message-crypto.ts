import { Effect } from 'effect'
import { fromPromise } from 'xstate'
import type { Attachment } from '../../crypto/attachments'
import { CryptoUnavailable } from '../../crypto/errors'
import { attachmentsPreview } from '../message-attachments/message-attachments.rules'

// The one seam between the conversation actors and the member's keys. The actors never touch a key: they invoke the
// named actors `decrypt` and `encrypt` built here from a `conversationKey` function (the key shared
// with the other member, derived from their public key and ours). The keys actor (systemId 'keys', another branch)
// answers that function; until it is merged the default below refuses, so previews read 'Message unavailable' and a
// send fails instead of sending anything unencrypted. Wiring it is one argument where the list actor is spawned
// (src/machines/member/member.machine.ts, through ./with-crypto.ts).

/**
 * The message code, loaded on first use (a preview to read, a message to send): a member's first
 * screen does without it. A failed load reads as a message that cannot be opened or sent.
 */
const messageCode = () => Promise.all([import('../../crypto/messages')])

/** What the key function needs of the actor system: actors by systemId (the keys actor). */
export interface KeySystem {
  get(systemId: string): unknown
}

/** Answers the AES key shared with the member whose public key this is. */
export type ConversationKeyFor = (system: KeySystem, otherPublicKey: string) => Promise<CryptoKey>

/** One ciphertext to read: the message's id, where it was sent, who sent it, and the other member's public key. */
export interface SealedMessage {
  readonly id: string
  readonly conversationId: string
  readonly senderId: string
  readonly content: string
  readonly otherPublicKey: string | null
}

/** Each message's text by id; null when it cannot be read (wrong key, tampered, no key). */
export type Opened = Readonly<Record<string, string | null>>

/** The photos and videos of each message by id (only messages that have any). */
export type OpenedMedia = Readonly<Record<string, ReadonlyArray<Attachment>>>

/** What an open conversation reads of its messages: the texts, and the attachments their envelopes carry. */
export interface OpenedPage {
  readonly texts: Opened
  readonly media: OpenedMedia
}

export interface SealRequest {
  readonly conversationId: string
  readonly senderId: string
  readonly otherPublicKey: string
  readonly text: string
  /** Photos and videos already uploaded (src/machines/message-attachments): they make the envelope an m2. */
  readonly attachments?: ReadonlyArray<Attachment>
}

/** Until the keys actor is merged: no key, so nothing is read or sent (never a plaintext fallback). */
export const noConversationKey: ConversationKeyFor = () =>
  Promise.reject(new CryptoUnavailable({ message: 'Message keys are not set up in this browser.' }))

/** A preview's text: the message's, or what it carries when it is only photos or videos. */
function preview(opened: { text: string; attachments: ReadonlyArray<Attachment> } | null): string | null {
  if (!opened) return null
  return opened.text === '' && opened.attachments.length > 0 ? attachmentsPreview(opened.attachments.map((a) => a.kind)) : opened.text
}

async function openOne(
  system: KeySystem,
  keyFor: ConversationKeyFor,
  sealed: SealedMessage,
): Promise<{ text: string; attachments: ReadonlyArray<Attachment> } | null> {
  if (sealed.otherPublicKey === null || sealed.content === '') return null
  try {
    const [key, [{ openMessage }]] = await Promise.all([keyFor(system, sealed.otherPublicKey), messageCode()])
    const context = { conversationId: sealed.conversationId, senderId: sealed.senderId }
    return await Effect.runPromise(openMessage(key, sealed.content, context))
  } catch {
    return null
  }
}

/** The named crypto actors of both conversation actors, over a way to get a conversation's key. */
export function messageCryptoActors(keyFor: ConversationKeyFor) {
  return {
    /** Never fails: a message that cannot be read is null, and the others still open. */
    decrypt: fromPromise<Opened, ReadonlyArray<SealedMessage>>(async ({ input, system }) => {
      const opened = await Promise.all(input.map((sealed) => openOne(system, keyFor, sealed)))
      return Object.fromEntries(input.map((sealed, i) => [sealed.id, preview(opened[i] ?? null)]))
    }),
    /** As `decrypt`, with the photos and videos each envelope carries (the open conversation shows them). */
    open: fromPromise<OpenedPage, ReadonlyArray<SealedMessage>>(async ({ input, system }) => {
      const opened = await Promise.all(input.map((sealed) => openOne(system, keyFor, sealed)))
      return {
        texts: Object.fromEntries(input.map((sealed, i) => [sealed.id, opened[i]?.text ?? null])),
        media: Object.fromEntries(
          input.flatMap((sealed, i) => {
            const attachments = opened[i]?.attachments ?? []
            return attachments.length > 0 ? [[sealed.id, attachments]] : []
          }),
        ),
      }
    }),
    /** The envelope to send; fails (too long, no key) rather than ever sending text. */
    encrypt: fromPromise<string, SealRequest>(async ({ input, system }) => {
      const key = await keyFor(system, input.otherPublicKey)
      const [{ encryptMessage }] = await messageCode()
      const context = { conversationId: input.conversationId, senderId: input.senderId }
      return Effect.runPromise(encryptMessage(key, input.text, context, input.attachments ?? []))
    }),
  }
}

/** The actors as merged today: decrypting and encrypting refuse until the keys actor answers conversation keys. */
export const defaultMessageCrypto = messageCryptoActors(noConversationKey)
