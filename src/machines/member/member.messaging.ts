import type { ConversationKeyFor } from '../conversations/message-crypto'
import { conversationsWithCrypto } from '../conversations/with-crypto'
import type { OwnKeysFor } from '../conversation/conversation.trust-actors'
import { conversationKeyFor, keysAfterLoad, KeysNotReady, myKeys, type KeysRef } from '../keys/keys'

// The conversation list with its open conversation and their message crypto: the member actor loads this module (its
// own chunk) once the first screen is up, or at once when a screen needs it (Messages, a profile's Message button),
// so a member's first load does without it. See member.machine.ts.

/** The keys actor's conversation keys, through the actor system every actor of the app shares. */
const keysOfTheApp: ConversationKeyFor = (system, otherPublicKey) =>
  conversationKeyFor(system as Parameters<typeof conversationKeyFor>[0], otherPublicKey)

/**
 * The member's own keys from the keys actor: the key in this browser, never the server's idea of it (once any read
 * of the store after a reload has ended).
 */
const ownKeysOfTheApp: OwnKeysFor = async (system) => {
  const mine = myKeys(await keysAfterLoad(system.get('keys') as KeysRef | undefined))
  if (mine instanceof KeysNotReady) throw mine
  return mine
}

export const conversationsLogic = conversationsWithCrypto(keysOfTheApp, ownKeysOfTheApp)

export type ConversationsLogic = typeof conversationsLogic
