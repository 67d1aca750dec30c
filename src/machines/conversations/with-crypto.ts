import { conversationMachine } from '../conversation/conversation.machine'
import { conversationsMachine } from './conversations.machine'
import { messageCryptoActors, type ConversationKeyFor } from './message-crypto'

// The conversation list, with the open conversation it runs, both reading and writing through one way of getting a
// conversation's key. The member actor passes the keys actor's `conversationKeyFor` (src/machines/keys/keys.ts); the
// tests pass fakes, or `noConversationKey`, which always refuses.
export function conversationsWithCrypto(keyFor: ConversationKeyFor) {
  const crypto = messageCryptoActors(keyFor)
  return conversationsMachine.provide({
    actors: { decrypt: crypto.decrypt, conversation: conversationMachine.provide({ actors: crypto }) },
  })
}
