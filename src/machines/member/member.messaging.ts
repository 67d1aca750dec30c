import type { ConversationKeyFor } from '../conversations/message-crypto'
import { conversationsWithCrypto } from '../conversations/with-crypto'
import type { OwnKeysFor } from '../conversation/conversation.trust-actors'
import { conversationKeyFor, KeysNotReady, myKeys, type KeysRef, type KeysSnapshot } from '../keys/keys'

// The conversation list with its open conversation and their message crypto: the member actor loads this module (its
// own chunk) once the first screen is up, or at once when a screen needs it (Messages, a profile's Message button),
// so a member's first load does without it. See member.machine.ts.

/** The keys actor's conversation keys, through the actor system every actor of the app shares. */
const keysOfTheApp: ConversationKeyFor = (system, otherPublicKey) =>
  conversationKeyFor(system as Parameters<typeof conversationKeyFor>[0], otherPublicKey)

/**
 * The member's own keys from the keys actor: the key in this browser, never the server's idea of it. After a reload
 * the actor may still be reading its store when a conversation opens: the answer waits for that read.
 */
const ownKeysOfTheApp: OwnKeysFor = (system) =>
  new Promise((resolve, reject) => {
    const keys = system.get('keys') as KeysRef | undefined
    const answer = (snapshot: KeysSnapshot | undefined) => {
      const mine = myKeys(snapshot)
      if (mine instanceof KeysNotReady) reject(mine)
      else resolve(mine)
    }
    if (!keys || !keys.getSnapshot().matches('loading')) return answer(keys?.getSnapshot())
    const subscription = keys.subscribe((snapshot) => {
      if (snapshot.matches('loading')) return
      subscription.unsubscribe()
      answer(snapshot)
    })
  })

export const conversationsLogic = conversationsWithCrypto(keysOfTheApp, ownKeysOfTheApp)

export type ConversationsLogic = typeof conversationsLogic
