import { Effect } from 'effect'
import { ENVELOPE_MAX_LENGTH, ENVELOPE_V2_MAX_LENGTH, MESSAGE_MAX_LENGTH } from '../api/contract/encryption'
import { type Attachment, attachmentsSchema } from './attachments'
import { fromBase64url, fromUtf8, randomBytes, toBase64url, utf8 } from './encoding'
import { MessageTooLong, UndecryptableMessage, type CryptoUnavailable } from './errors'
import { attempt, certain } from './webcrypto'

// A message's content as the server stores it, the envelope:
//
//   m1.<iv>.<ciphertext>
//
// - m1: envelope version 1 (AES-256-GCM under the conversation key of conversation-key.ts).
// - iv: 12 random bytes, fresh for every encryption (an edit is a new encryption), base64url, 16 characters. Random
//   96-bit IVs stay safe under one key far beyond any conversation's message count (NIST's 2^32 bound).
// - ciphertext: the UTF-8 text encrypted, followed by the 16-byte tag, base64url.
//
// The additional authenticated data is JSON ["wren/dm/m1", conversationId, senderId]: a ciphertext copied into
// another conversation, or shown by the server as sent by the other member, fails to decrypt. Not bound (the server
// assigns them after encryption): the message id and time, so the server can still repeat, reorder or drop messages.
//
// Size: envelopeLength in src/api/contract/encryption.ts. For an n-character message the envelope is at most
// 20 + ceil((4n + 16) * 4 / 3) characters, 10,708 for the 2,000-character maximum (ENVELOPE_MAX_LENGTH); the server
// refuses longer content without reading it.
//
// A message with photos or videos is an m2 envelope: the same parts and AAD (labelled wren/dm/m2), and its plaintext
//
//   <attachments JSON>\n<text>
//
// the attachments' metadata and fresh per-file keys (./attachments.ts) on the first line (JSON.stringify writes no
// raw newline), then the text as it is. Kept apart from the text rather than one JSON object so the text is not
// JSON-escaped: a control character would take 6 bytes, which would break the 4-bytes-a-character bound above. Its
// bound, ENVELOPE_V2_MAX_LENGTH (12,466), adds the newline and the metadata's largest size to m1's arithmetic.

type Version = 'm1' | 'm2'
const IV_BYTES = 12
const TAG_BYTES = 16

/** What a ciphertext is bound to: the open conversation's id and the message's sender (sender._id, or me). */
export interface MessageContext {
  readonly conversationId: string
  readonly senderId: string
}

function additionalData(version: Version, context: MessageContext): Uint8Array<ArrayBuffer> {
  return utf8(JSON.stringify([`wren/dm/${version}`, context.conversationId, context.senderId]))
}

/** A message as its envelope carries it: the text, and the photos and videos (none for an m1 envelope). */
export interface OpenedMessage {
  readonly text: string
  readonly attachments: ReadonlyArray<Attachment>
}

/** Characters as the product counts them: code points (an emoji is one, however many UTF-16 units). */
export function messageLength(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

/**
 * Encrypts a message (or an edit) for the conversation: an m1 envelope, or an m2 one when it carries attachments.
 * `iv` is given only by known-answer tests; it is fresh and random otherwise.
 */
export function encryptMessage(
  conversationKey: CryptoKey,
  plaintext: string,
  context: MessageContext,
  attachments: ReadonlyArray<Attachment> = [],
  iv: Uint8Array<ArrayBuffer> = randomBytes(IV_BYTES),
): Effect.Effect<string, MessageTooLong | CryptoUnavailable> {
  return Effect.gen(function* () {
    const length = messageLength(plaintext)
    if (length > MESSAGE_MAX_LENGTH) {
      return yield* Effect.fail(
        new MessageTooLong({ message: `Messages can be at most ${MESSAGE_MAX_LENGTH} characters.`, length }),
      )
    }
    const version: Version = attachments.length > 0 ? 'm2' : 'm1'
    const body = version === 'm2' ? `${JSON.stringify(attachmentsSchema.parse(attachments))}\n${plaintext}` : plaintext
    const ciphertext = yield* certain((s) =>
      s.encrypt({ name: 'AES-GCM', iv, additionalData: additionalData(version, context) }, conversationKey, utf8(body)),
    )
    return `${version}.${toBase64url(iv)}.${toBase64url(new Uint8Array(ciphertext))}`
  })
}

const malformed = () => new UndecryptableMessage({ message: 'This message cannot be read.', reason: 'malformed' })
const rejected = () => new UndecryptableMessage({ message: 'This message cannot be read.', reason: 'rejected' })

/** Decrypts an envelope of either version, or says why it cannot (the UI shows a placeholder either way). */
export function openMessage(
  conversationKey: CryptoKey,
  envelope: string,
  context: MessageContext,
): Effect.Effect<OpenedMessage, UndecryptableMessage | CryptoUnavailable> {
  return Effect.gen(function* () {
    const version = envelope.startsWith('m2.') ? 'm2' : 'm1'
    // Bounded before any decoding: a hostile server cannot make the browser chew a huge string.
    if (envelope.length > (version === 'm2' ? ENVELOPE_V2_MAX_LENGTH : ENVELOPE_MAX_LENGTH)) return yield* Effect.fail(malformed())
    const parts = envelope.split('.')
    if (parts.length !== 3 || parts[0] !== version) return yield* Effect.fail(malformed())
    const iv = fromBase64url(parts[1] ?? '')
    const ciphertext = fromBase64url(parts[2] ?? '')
    if (iv?.length !== IV_BYTES || ciphertext === undefined || ciphertext.length < TAG_BYTES) {
      return yield* Effect.fail(malformed())
    }
    const plaintext = yield* attempt(
      (s) => s.decrypt({ name: 'AES-GCM', iv, additionalData: additionalData(version, context) }, conversationKey, ciphertext),
      rejected,
    )
    const body = yield* Effect.try({ try: () => fromUtf8(new Uint8Array(plaintext)), catch: malformed })
    if (version === 'm1') return { text: body, attachments: [] }
    const newline = body.indexOf('\n')
    if (newline < 0) return yield* Effect.fail(malformed())
    const attachments = yield* Effect.try({
      try: () => attachmentsSchema.parse(JSON.parse(body.slice(0, newline))),
      catch: malformed,
    })
    return { text: body.slice(newline + 1), attachments }
  })
}

/** The text of an envelope of either version (previews; a conversation opens attachments with openMessage). */
export function decryptMessage(
  conversationKey: CryptoKey,
  envelope: string,
  context: MessageContext,
): Effect.Effect<string, UndecryptableMessage | CryptoUnavailable> {
  return Effect.map(openMessage(conversationKey, envelope, context), (opened) => opened.text)
}
