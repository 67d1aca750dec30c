import { Effect } from 'effect'
import { fromPromise } from 'xstate'
import { CryptoUnavailable } from '../../crypto/errors'

// The one seam between the conversation actors and the member's keys. The actors never touch a key: they invoke the
// named actors `decrypt` and `encrypt` built here from a `conversationKey` function (the key shared
// with the other member, derived from their public key and ours). The keys actor (systemId 'keys', another branch)
// answers that function; until it is merged the default below refuses, so previews read 'Message unavailable' and a
// send fails instead of sending anything unencrypted. Wiring it is one argument where the list actor is spawned
// (src/machines/member/member.machine.ts, through ./with-crypto.ts).

/**
 * The message code, loaded on first use (a preview to read, a message to send): a member's first
 * screen does without it (issue 13). A failed load reads as a message that cannot be opened or sent.
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

export interface SealRequest {
  readonly conversationId: string
  readonly senderId: string
  readonly otherPublicKey: string
  readonly text: string
}

/** Until the keys actor is merged: no key, so nothing is read or sent (never a plaintext fallback). */
export const noConversationKey: ConversationKeyFor = () =>
  Promise.reject(new CryptoUnavailable({ message: 'Message keys are not set up in this browser.' }))

async function openOne(system: KeySystem, keyFor: ConversationKeyFor, sealed: SealedMessage): Promise<string | null> {
  if (sealed.otherPublicKey === null || sealed.content === '') return null
  try {
    const [key, [{ decryptMessage }]] = await Promise.all([keyFor(system, sealed.otherPublicKey), messageCode()])
    const context = { conversationId: sealed.conversationId, senderId: sealed.senderId }
    return await Effect.runPromise(decryptMessage(key, sealed.content, context))
  } catch {
    return null
  }
}

/** The named crypto actors of both conversation actors, over a way to get a conversation's key. */
export function messageCryptoActors(keyFor: ConversationKeyFor) {
  return {
    /** Never fails: a message that cannot be read is null, and the others still open. */
    decrypt: fromPromise<Opened, ReadonlyArray<SealedMessage>>(async ({ input, system }) => {
      const texts = await Promise.all(input.map((sealed) => openOne(system, keyFor, sealed)))
      return Object.fromEntries(input.map((sealed, i) => [sealed.id, texts[i] ?? null]))
    }),
    /** The envelope to send; fails (too long, no key) rather than ever sending text. */
    encrypt: fromPromise<string, SealRequest>(async ({ input, system }) => {
      const key = await keyFor(system, input.otherPublicKey)
      const [{ encryptMessage }] = await messageCode()
      return Effect.runPromise(encryptMessage(key, input.text, { conversationId: input.conversationId, senderId: input.senderId }))
    }),
  }
}

/** The actors as merged today: decrypting and encrypting refuse until the keys actor answers conversation keys. */
export const defaultMessageCrypto = messageCryptoActors(noConversationKey)
