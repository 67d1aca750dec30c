import type { AnyEventObject } from 'xstate'
import { Forbidden, Network, NotFound } from '../../../src/api/errors'
import type { Conversation } from '../../../src/api/messages.calls'
import { conversationsMachine } from '../../../src/machines/conversations/conversations.machine'
import { type MachineModel, scenarioWalks, valueAndContext } from '../support/walks'

// The conversation list's model (Messages, left pane), in four walks that together take every transition: the first
// load, staying fresh (realtime changes and the socket-down poll), paging and search, and archive / mute / delete.
// Walked by tests/machines/conversations.test.ts and printed by `npm run paths -- conversations`.

export const ME = 'u-me'

const person = (id: string, username: string, displayName: string, publicKey: string | null = `pk-${id}`) => ({
  id,
  username,
  displayName,
  avatar: null,
  verified: false,
  publicKey,
})
const me = person(ME, 'me', 'Me')

const conversation = (id: string, other: ReturnType<typeof person>, rest: Partial<Conversation> = {}): Conversation => ({
  id,
  participants: [me, other],
  lastMessage: null,
  lastActivity: '2026-01-01T10:00:00.000Z',
  unreadCount: 0,
  muted: false,
  archived: false,
  ...rest,
})
const last = (id: string, senderId: string, rest: { read?: boolean; deleted?: boolean } = {}) => ({
  id,
  senderId,
  content: rest.deleted ? '' : `m1.iv-${id}.ct-${id}`,
  read: rest.read ?? false,
  deleted: rest.deleted ?? false,
  createdAt: '2026-01-01T10:00:00.000Z',
})

const ann = person('u-ann', 'ann', 'Ann Archer')
const bob = person('u-bob', 'bobby', 'Bob Builder')
const cy = person('u-cy', 'cy', 'Cy Young')
const dee = person('u-dee', 'dee', 'Dee Dee')

/** Ann wrote twice (unread); Bob's conversation is muted with one unread; Cy's has no message yet. */
export const firstPage = {
  conversations: [
    conversation('c-ann', ann, { lastMessage: last('m-ann', 'u-ann'), unreadCount: 2 }),
    conversation('c-bob', bob, { lastMessage: last('m-bob', ME, { read: true }), unreadCount: 1, muted: true }),
    conversation('c-cy', cy),
  ],
  nextCursor: 'n2',
}
/** Dee's last message was deleted (nothing to decrypt). */
export const secondPage = { conversations: [conversation('c-dee', dee, { lastMessage: last('m-dee', ME, { deleted: true, read: true }) })], nextCursor: null }
/** After a change: Cy wrote, so Cy's row comes first; Ann's archived elsewhere leaves. */
export const freshPage = {
  conversations: [
    conversation('c-cy', cy, { lastMessage: last('m-cy', 'u-cy'), unreadCount: 1 }),
    conversation('c-ann', ann, { lastMessage: last('m-ann', 'u-ann'), unreadCount: 2, archived: true }),
    conversation('c-bob', bob, { lastMessage: last('m-bob', ME, { read: true }), unreadCount: 1, muted: true }),
  ],
  nextCursor: null,
}

/** Ann's message reads; Bob's cannot be decrypted (a tampered or foreign ciphertext). */
export const openedFirst = { 'm-ann': 'See you at noon', 'm-bob': null }
export const openedFresh = { 'm-cy': 'Fresh news' }

const zed = person('u-zed', 'zed', 'Zed Zero')
const eve = person('u-eve', 'eve', 'Eve Evans')
/** An archived conversation a link points at (the list leaves archived ones out). */
export const zedConversation = conversation('c-zed', zed, { archived: true })
/** The conversation the server answers for a start with Eve (new, so nothing in it yet). */
export const eveConversation = conversation('c-eve', eve)
/** Starting again with Bob reopens the muted one, which moves to the top. */
export const bobAgain = conversation('c-bob', bob, { muted: true, lastActivity: '2026-01-02T10:00:00.000Z' })
export const refusedByEve = new Forbidden({ message: "Eve Evans doesn't accept messages from you", fromServer: true })

export const offline = new Network({ message: 'Unable to reach the server.' })
export const notFound = new NotFound({ message: 'Conversation not found', fromServer: true })

const loaded = { type: 'xstate.done.actor.loadConversations', output: firstPage }
const decryptedFirst = { type: 'xstate.done.actor.decrypt', output: openedFirst }

const scenarios: Record<string, AnyEventObject[]> = {
  'first load': [
    loaded,
    { type: 'xstate.error.actor.loadConversations', error: offline },
    { type: 'conversations.retry' },
    { type: 'conversations.poll' },
    { type: 'realtime.connected' },
    decryptedFirst,
  ],
  fresh: [
    loaded,
    decryptedFirst,
    { type: 'conversation.changed', conversation: 'c-cy', change: 'new_message' },
    { type: 'xstate.done.actor.refresh', output: freshPage },
    { type: 'xstate.error.actor.refresh', error: offline },
    { type: 'conversations.poll' },
    { type: 'realtime.connected' },
    { type: 'realtime.disconnected', reason: 'transport close' },
    { type: 'conversation.open', id: 'c-cy' },
    { type: 'xstate.done.actor.decrypt', output: openedFresh },
    { type: 'xstate.error.actor.decrypt', error: new Error('worker died') },
  ],
  'paging and search': [
    loaded,
    { type: 'conversations.more' },
    { type: 'xstate.done.actor.loadMore', output: secondPage },
    { type: 'xstate.error.actor.loadMore', error: offline },
    { type: 'conversations.search', query: 'BOB' },
    { type: 'conversations.search', query: 'dee' },
    { type: 'conversations.search', query: '' },
  ],
  changes: [
    loaded,
    { type: 'conversation.archive', id: 'c-ann' },
    { type: 'conversation.mute', id: 'c-bob' },
    { type: 'conversation.delete', id: 'c-cy' },
    { type: 'conversation.delete', id: 'c-nobody' },
    { type: 'conversation.open', id: 'c-ann' },
    { type: 'conversation.close' },
    { type: 'xstate.done.actor.change', output: null },
    { type: 'xstate.error.actor.change', error: notFound },
  ],
  // A link to a conversation the list does not hold: fetched and opened (an archived one can still be archived or
  // deleted from its pane), or missing.
  links: [
    { type: 'conversation.open', id: 'c-zed' },
    { type: 'conversation.fetched', conversation: zedConversation },
    { type: 'conversation.fetchFailed', id: 'c-zed', error: notFound },
    { type: 'conversation.fetchFailed', id: 'c-zed', error: offline },
    { type: 'conversation.close' },
    loaded,
    { type: 'conversation.delete', id: 'c-zed' },
    { type: 'xstate.done.actor.change', output: null },
  ],
  // Starting a conversation from the New Message modal or a profile, before or after the list has loaded.
  starts: [
    loaded,
    { type: 'conversation.start', recipientId: 'u-eve' },
    { type: 'conversation.started', conversation: eveConversation },
    { type: 'conversation.started', conversation: bobAgain },
    { type: 'conversation.startFailed', error: refusedByEve },
    { type: 'conversation.startFailed', error: offline },
  ],
}

const label = (event: AnyEventObject): string | undefined => {
  switch (event.type) {
    case 'xstate.done.actor.loadConversations':
      return 'loaded'
    case 'xstate.done.actor.loadMore':
      return 'loaded more'
    case 'xstate.done.actor.refresh':
      return 'refreshed'
    case 'xstate.done.actor.decrypt':
      return `decrypted(${Object.keys(event.output as object).join(',')})`
    case 'xstate.done.actor.change':
      return 'saved'
    case 'conversations.search':
      return `search(${JSON.stringify(event.query)})`
    case 'conversation.archive':
    case 'conversation.mute':
    case 'conversation.delete':
    case 'conversation.open':
      return `${event.type}(${event.id as string})`
    case 'conversation.fetched':
    case 'conversation.started':
      return `${event.type}(${(event.conversation as Conversation).id})`
    case 'conversation.fetchFailed':
    case 'conversation.startFailed':
      return `${event.type}(${(event.error as { _tag: string })._tag})`
    default:
      return undefined
  }
}

export const conversationsModel = {
  name: 'conversations',
  machine: conversationsMachine,
  walks: scenarioWalks(scenarios, {
    label,
    input: { userId: ME },
    serializeState: valueAndContext,
    edgesOnly: 'the rows change with every page, realtime change, search and archive: every order of them is its own state',
  }),
} satisfies MachineModel
