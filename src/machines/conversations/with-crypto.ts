import { conversationMachine } from '../conversation/conversation.machine'
import { noOwnKeys, trustActors, type OwnKeysFor } from '../conversation/conversation.trust-actors'
import { conversationsMachine } from './conversations.machine'
import { messageCryptoActors, type ConversationKeyFor } from './message-crypto'

// The conversation list, with the open conversation it runs, both reading and writing through one way of getting a
// conversation's key, and the open conversation checking keys against the member's own key in this browser. The
// member actor passes the keys actor's `conversationKeyFor` and own keys (src/machines/keys/keys.ts); the tests pass
// fakes, or `noConversationKey` / `noOwnKeys`, which always refuse.
export function conversationsWithCrypto(keyFor: ConversationKeyFor, ownKeys: OwnKeysFor = noOwnKeys) {
  const crypto = messageCryptoActors(keyFor)
  return conversationsMachine.provide({
    actors: { decrypt: crypto.decrypt, conversation: conversationMachine.provide({ actors: { ...crypto, ...trustActors(ownKeys) } }) },
  })
}
