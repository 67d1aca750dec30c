import { composerMachine } from '../composer/composer.machine'
import type { ConversationKeyFor } from '../conversations/message-crypto'
import { conversationsWithCrypto } from '../conversations/with-crypto'
import type { OwnKeysFor } from '../conversation/conversation.trust-actors'
import { conversationKeyFor, keysAfterLoad, KeysNotReady, myKeys, type KeysRef } from '../keys/keys'
import { shareMachine } from '../share/share.machine'

// What a member's first screen does without, in one chunk the member actor loads once that screen is up, or at once
// when a screen needs it (Messages, a profile's Message button, Create Post, a card's Quote, Edit or Share): the
// conversation list with its open conversation and their message crypto, the Create Post composer and the Share
// button's actor. See member.machine.ts.

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

export const later = {
  conversations: conversationsWithCrypto(keysOfTheApp, ownKeysOfTheApp),
  composer: composerMachine,
  share: shareMachine,
}

export type LaterLogic = typeof later
