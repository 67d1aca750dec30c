import { enqueueActions, sendParent, sendTo, setup, spawnChild, type ActorRefFrom } from 'xstate'
import { composerMachine } from '../composer/composer.machine'
import type { ConversationKeyFor } from '../conversations/message-crypto'
import { conversationKeyFor } from '../keys/keys'
import { conversationsWithCrypto } from '../conversations/with-crypto'
import { notificationsMachine } from '../notifications/notifications.machine'
import { postsMachine, type PostsRef } from '../posts/posts.machine'
import { realtimeActor, type RealtimeInput, type RealtimeStatusEvent } from '../realtime/realtime.actor'

// What exists only while a member is signed in, as one child of the app actor (docs/architecture.md, "Actors"): the
// post cache and the Create Post composer (systemIds 'posts' and 'composer') and the realtime socket ('realtime'),
// connected with the member's token. The app stops this actor on sign-out, which stops all three at once: the next
// member starts with an empty cache, a blank composer and their own socket. The socket's ups and downs go up to the
// app, which shows them to the inspector, and to the conversation list ('conversations'), which the realtime actor
// feeds with server events and which polls every 10 s only while the socket is down, and likewise to the unread
// notification count ('notifications'), the badge on Notifications. The list and its open
// conversation get their conversation keys from the app's keys actor (systemId 'keys', src/machines/keys/keys.ts),
// which refuses while the member's own key is not ready: then previews read 'Message unavailable' and nothing is sent.

/** The keys actor's conversation keys, through the actor system every actor of the app shares. */
const keysOfTheApp: ConversationKeyFor = (system, otherPublicKey) =>
  conversationKeyFor(system as Parameters<typeof conversationKeyFor>[0], otherPublicKey)

export const memberMachine = setup({
  types: {
    context: {} as { member: RealtimeInput },
    input: {} as RealtimeInput,
    events: {} as RealtimeStatusEvent,
  },
  actors: { posts: postsMachine, composer: composerMachine, realtime: realtimeActor, conversations: conversationsWithCrypto(keysOfTheApp), notifications: notificationsMachine },
  actions: {
    tellApp: sendParent(({ event }) => event),
    tellConversations: sendTo('conversations', ({ event }) => event),
    tellNotifications: sendTo('notifications', ({ event }) => event),
  },
}).createMachine({
  id: 'member',
  context: ({ input }) => ({ member: input }),
  entry: [
    spawnChild('posts', { id: 'posts', systemId: 'posts' }),
    // The composer hands new posts to the post cache, which exists by now.
    enqueueActions(({ enqueue, system }) =>
      enqueue.spawnChild('composer', { id: 'composer', systemId: 'composer', input: { posts: system.get('posts') as PostsRef } }),
    ),
    spawnChild('conversations', {
      id: 'conversations',
      systemId: 'conversations',
      input: ({ context }) => ({ userId: context.member.userId }),
    }),
    spawnChild('notifications', { id: 'notifications', systemId: 'notifications' }),
  ],
  invoke: { id: 'realtime', systemId: 'realtime', src: 'realtime', input: ({ context }) => context.member },
  on: {
    'realtime.connected': { actions: ['tellApp', 'tellConversations', 'tellNotifications'] },
    'realtime.disconnected': { actions: ['tellApp', 'tellConversations', 'tellNotifications'] },
    'realtime.refused': { actions: 'tellApp' },
  },
})

export type MemberMachine = typeof memberMachine
export type MemberRef = ActorRefFrom<MemberMachine>
