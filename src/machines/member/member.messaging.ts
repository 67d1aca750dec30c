import type { ConversationKeyFor } from '../conversations/message-crypto'
import { conversationsWithCrypto } from '../conversations/with-crypto'
import { conversationKeyFor } from '../keys/keys'

// The conversation list with its open conversation and their message crypto: the member actor loads this module (its
// own chunk) once the first screen is up, or at once when a screen needs it (Messages, a profile's Message button),
// so a member's first load does without it (issue 13). See member.machine.ts.

/** The keys actor's conversation keys, through the actor system every actor of the app shares. */
const keysOfTheApp: ConversationKeyFor = (system, otherPublicKey) =>
  conversationKeyFor(system as Parameters<typeof conversationKeyFor>[0], otherPublicKey)

export const conversationsLogic = conversationsWithCrypto(keysOfTheApp)

export type ConversationsLogic = typeof conversationsLogic
