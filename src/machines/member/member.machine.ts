import { assign, enqueueActions, fromPromise, sendParent, sendTo, setup, spawnChild, type ActorRefFrom, type AnyActorLogic } from 'xstate'
import { composerMachine } from '../composer/composer.machine'
import type { ConversationsInput } from '../conversations/conversations.machine'
import { afterFirstScreen } from '../lib/first-screen'
import { notificationsMachine } from '../notifications/notifications.machine'
import { postsMachine, type PostsRef } from '../posts/posts.machine'
import { realtimeActor, type RealtimeInput, type RealtimeStatusEvent } from '../realtime/realtime.actor'
import { shareMachine } from '../share/share.machine'
import type { ConversationsLogic } from './member.messaging'

// What exists only while a member is signed in, as one child of the app actor (docs/architecture.md, "Actors"): the
// post cache, the Create Post composer and the Share button's actor (systemIds 'posts', 'composer' and 'share') and the
// realtime socket ('realtime'),
// connected with the member's token. The app stops this actor on sign-out, which stops all of them at once: the next
// member starts with an empty cache, a blank composer and their own socket. The socket's ups and downs go up to the
// app, which shows them to the inspector, and to the conversation list ('conversations'), which the realtime actor
// feeds with server events and which polls every 10 s only while the socket is down, and likewise to the unread
// notification count ('notifications'), the badge on Notifications. The list and its open
// conversation get their conversation keys from the app's keys actor (systemId 'keys', src/machines/keys/keys.ts),
// which refuses while the member's own key is not ready: then previews read 'Message unavailable' and nothing is sent.
//
// The conversation list's code (with the message crypto, ./member.messaging.ts) is its own chunk: it loads
// once the first screen is up (lib/first-screen.ts), or at once when a screen needs the list and sends
// `member.messaging.needed` (Messages, a profile's Message button); the list is spawned then, told whether the socket
// is already up. Until then the Messages badge reads 0 and server events for it are dropped: the list reads the
// server when it starts, so nothing is missed. A chunk that fails to load is asked for again by the next screen that
// needs it.

export type MemberEvent = RealtimeStatusEvent | { type: 'member.messaging.needed' }

export interface MemberContext {
  member: RealtimeInput
  /** The socket is up (the last status the realtime actor sent), for a conversation list started later. */
  connected: boolean
}

/** `spawnChild` for logic loaded at run time (the conversation list): typed by hand, as in the app actor. */
const spawnLoaded = spawnChild as unknown as (
  logic: AnyActorLogic,
  options: { id: string; systemId: string; input: ConversationsInput },
) => never

export const memberMachine = setup({
  types: {
    context: {} as MemberContext,
    input: {} as RealtimeInput,
    events: {} as MemberEvent,
  },
  actors: {
    posts: postsMachine,
    composer: composerMachine,
    realtime: realtimeActor,
    notifications: notificationsMachine,
    share: shareMachine,
    /** Resolves once the first screen is up (or a few seconds after the session started on another screen). */
    firstScreen: fromPromise<void>(() => new Promise<void>((resolve) => afterFirstScreen(resolve))),
    loadMessaging: fromPromise<ConversationsLogic>(() => import('./member.messaging').then((m) => m.conversationsLogic)),
  },
  actions: {
    tellApp: sendParent(({ event }) => event),
    /** Only once the list runs: before that there is nobody to tell (it is told `connected` when it starts). */
    tellConversations: enqueueActions(({ enqueue, event, self }) => {
      if (self.getSnapshot().children.conversations) enqueue.sendTo('conversations', event)
    }),
    tellNotifications: sendTo('notifications', ({ event }) => event),
    setConnected: assign((_, connected: boolean) => ({ connected })),
    spawnConversations: enqueueActions(({ enqueue, context }, logic: ConversationsLogic) => {
      enqueue(
        spawnLoaded(logic, {
          id: 'conversations',
          systemId: 'conversations',
          input: { userId: context.member.userId, connected: context.connected },
        }),
      )
    }),
  },
}).createMachine({
  id: 'member',
  context: ({ input }) => ({ member: input, connected: false }),
  entry: [
    spawnChild('posts', { id: 'posts', systemId: 'posts' }),
    // The composer hands new posts to the post cache, which exists by now.
    enqueueActions(({ enqueue, system }) =>
      enqueue.spawnChild('composer', { id: 'composer', systemId: 'composer', input: { posts: system.get('posts') as PostsRef } }),
    ),
    spawnChild('notifications', { id: 'notifications', systemId: 'notifications' }),
    spawnChild('share', { id: 'share', systemId: 'share', input: {} }),
  ],
  invoke: { id: 'realtime', systemId: 'realtime', src: 'realtime', input: ({ context }) => context.member },
  on: {
    'realtime.connected': {
      actions: [{ type: 'setConnected', params: true }, 'tellApp', 'tellConversations', 'tellNotifications'],
    },
    'realtime.disconnected': {
      actions: [{ type: 'setConnected', params: false }, 'tellApp', 'tellConversations', 'tellNotifications'],
    },
    'realtime.refused': { actions: 'tellApp' },
  },
  initial: 'messagingWaits',
  states: {
    /** The conversation list's code waits for the first screen, unless a screen needs it now. */
    messagingWaits: {
      invoke: { id: 'firstScreen', src: 'firstScreen', onDone: { target: 'messagingLoading' } },
      on: { 'member.messaging.needed': { target: 'messagingLoading' } },
    },
    messagingLoading: {
      invoke: {
        id: 'loadMessaging',
        src: 'loadMessaging',
        onDone: { target: 'messagingReady', actions: { type: 'spawnConversations', params: ({ event }) => event.output } },
        onError: { target: 'messagingFailed' },
      },
    },
    /** The chunk did not load (offline, a new deploy): the next screen that needs the list asks again. */
    messagingFailed: {
      on: { 'member.messaging.needed': { target: 'messagingLoading' } },
    },
    /** The conversation list runs (systemId 'conversations'). */
    messagingReady: {},
  },
})

export type MemberMachine = typeof memberMachine
export type MemberRef = ActorRefFrom<MemberMachine>
