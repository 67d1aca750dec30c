import { assign, enqueueActions, fromPromise, sendParent, sendTo, setup, spawnChild, type ActorRefFrom, type AnyActorLogic } from 'xstate'
import type { ComposerEvent } from '../composer/composer.machine'
import { afterFirstScreen } from '../lib/first-screen'
import { notificationsMachine } from '../notifications/notifications.machine'
import { postsMachine, type PostsRef } from '../posts/posts.machine'
import { realtimeActor, type RealtimeInput, type RealtimeStatusEvent } from '../realtime/realtime.actor'
import type { ShareEvent } from '../share/share.machine'
import type { LaterLogic } from './member.later'

// What exists only while a member is signed in, as one child of the app actor (docs/architecture.md, "Actors"): the
// post cache ('posts'), the realtime socket ('realtime'), connected with the member's token, and the unread
// notification count ('notifications', the badge on Notifications) from the start; the conversation list
// ('conversations'), the Create Post composer ('composer') and the Share button's actor ('share') once their code is
// there. The app stops this actor on sign-out, which stops all of them at once: the next member starts with an empty
// cache, a blank composer and their own socket. The socket's ups and downs go up to the app, which shows them to the
// inspector, and to the conversation list, which the realtime actor feeds with server events and which polls every
// 10 s only while the socket is down, and likewise to the notification count. The list and its open conversation get
// their conversation keys from the app's keys actor (systemId 'keys', src/machines/keys/keys.ts), which refuses while
// the member's own key is not ready: then previews read 'Message unavailable' and nothing is sent.
//
// The list (with the message crypto), the composer and the share actor are one chunk (./member.later.ts), which a
// first screen does without: it loads once that screen is up (lib/first-screen.ts), or at once when a screen needs it
// and sends `member.later.needed` (Messages, a profile's Message button) or tells the composer or the share actor
// something through `member.tell` (Create Post, a card's Quote, Edit or Share). What is told meanwhile waits, the
// latest event for each, and is handed over as they start. Until then the Messages badge reads 0 and server events
// for the list are dropped: the list reads the server when it starts, so nothing is missed. A chunk that fails to load
// is asked for again by the next screen that needs it.

/** Something for an actor whose code may not be there yet: it waits until that actor runs. */
export type Told = { to: 'composer'; event: ComposerEvent } | { to: 'share'; event: ShareEvent }

export type MemberEvent = RealtimeStatusEvent | { type: 'member.later.needed' } | ({ type: 'member.tell' } & Told)

export interface MemberContext {
  member: RealtimeInput
  /** The socket is up (the last status the realtime actor sent), for a conversation list started later. */
  connected: boolean
  /** What the composer and the share actor were told before their code was there: the latest event for each. */
  waiting: { composer?: ComposerEvent; share?: ShareEvent }
}

/** `spawnChild` for logic loaded at run time: typed by hand, as in the app actor. */
const spawnLoaded = spawnChild as unknown as (logic: AnyActorLogic, options: { id: string; systemId: string; input: unknown }) => never

export const memberMachine = setup({
  types: {
    context: {} as MemberContext,
    input: {} as RealtimeInput,
    events: {} as MemberEvent,
  },
  actors: {
    posts: postsMachine,
    realtime: realtimeActor,
    notifications: notificationsMachine,
    /** Resolves once the first screen is up (or a few seconds after the session started on another screen). */
    firstScreen: fromPromise<void>(() => new Promise<void>((resolve) => afterFirstScreen(resolve))),
    loadLater: fromPromise<LaterLogic>(() => import('./member.later').then((m) => m.later)),
  },
  actions: {
    tellApp: sendParent(({ event }) => event),
    /** Only once the list runs: before that there is nobody to tell (it is told `connected` when it starts). */
    tellConversations: enqueueActions(({ enqueue, event, self }) => {
      if (self.getSnapshot().children.conversations) enqueue.sendTo('conversations', event)
    }),
    tellNotifications: sendTo('notifications', ({ event }) => event),
    setConnected: assign((_, connected: boolean) => ({ connected })),
    keepTold: assign(({ context }, told: Told) => ({ waiting: { ...context.waiting, [told.to]: told.event } })),
    passTold: enqueueActions(({ enqueue }, told: Told) => enqueue.sendTo(told.to, told.event)),
    spawnLater: enqueueActions(({ enqueue, context, system }, logic: LaterLogic) => {
      enqueue(
        spawnLoaded(logic.conversations, {
          id: 'conversations',
          systemId: 'conversations',
          input: { userId: context.member.userId, connected: context.connected },
        }),
      )
      // The composer hands new posts to the post cache, which runs from the start.
      enqueue(spawnLoaded(logic.composer, { id: 'composer', systemId: 'composer', input: { posts: system.get('posts') as PostsRef } }))
      enqueue(spawnLoaded(logic.share, { id: 'share', systemId: 'share', input: {} }))
      const { composer, share } = context.waiting
      if (composer) enqueue.sendTo('composer', composer)
      if (share) enqueue.sendTo('share', share)
      enqueue.assign({ waiting: {} })
    }),
  },
}).createMachine({
  id: 'member',
  context: ({ input }) => ({ member: input, connected: false, waiting: {} }),
  entry: [
    spawnChild('posts', { id: 'posts', systemId: 'posts' }),
    spawnChild('notifications', { id: 'notifications', systemId: 'notifications' }),
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
  initial: 'laterWaits',
  states: {
    /** The later chunk waits for the first screen, unless a screen needs it now. */
    laterWaits: {
      invoke: { id: 'firstScreen', src: 'firstScreen', onDone: { target: 'laterLoading' } },
      on: {
        'member.later.needed': { target: 'laterLoading' },
        'member.tell': { target: 'laterLoading', actions: { type: 'keepTold', params: ({ event }) => event } },
      },
    },
    laterLoading: {
      invoke: {
        id: 'loadLater',
        src: 'loadLater',
        onDone: { target: 'laterReady', actions: { type: 'spawnLater', params: ({ event }) => event.output } },
        onError: { target: 'laterFailed' },
      },
      on: { 'member.tell': { actions: { type: 'keepTold', params: ({ event }) => event } } },
    },
    /** The chunk did not load (offline, a new deploy): the next screen that needs it asks again. */
    laterFailed: {
      on: {
        'member.later.needed': { target: 'laterLoading' },
        'member.tell': { target: 'laterLoading', actions: { type: 'keepTold', params: ({ event }) => event } },
      },
    },
    /** The conversation list, the composer and the share actor run. */
    laterReady: {
      on: { 'member.tell': { actions: { type: 'passTold', params: ({ event }) => event } } },
    },
  },
})

export type MemberMachine = typeof memberMachine
export type MemberRef = ActorRefFrom<MemberMachine>
