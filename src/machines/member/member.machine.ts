import { enqueueActions, sendParent, setup, spawnChild, type ActorRefFrom } from 'xstate'
import { composerMachine } from '../composer/composer.machine'
import { postsMachine, type PostsRef } from '../posts/posts.machine'
import { realtimeActor, type RealtimeInput, type RealtimeStatusEvent } from '../realtime/realtime.actor'

// What exists only while a member is signed in, as one child of the app actor (docs/architecture.md, "Actors"): the
// post cache and the Create Post composer (systemIds 'posts' and 'composer') and the realtime socket ('realtime'),
// connected with the member's token. The app stops this actor on sign-out, which stops all three at once: the next
// member starts with an empty cache, a blank composer and their own socket. The socket's ups and downs go up to the
// app, which shows them to the inspector.

export const memberMachine = setup({
  types: {
    context: {} as { member: RealtimeInput },
    input: {} as RealtimeInput,
    events: {} as RealtimeStatusEvent,
  },
  actors: { posts: postsMachine, composer: composerMachine, realtime: realtimeActor },
  actions: {
    tellApp: sendParent(({ event }) => event),
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
  ],
  invoke: { id: 'realtime', systemId: 'realtime', src: 'realtime', input: ({ context }) => context.member },
  on: {
    'realtime.connected': { actions: 'tellApp' },
    'realtime.disconnected': { actions: 'tellApp' },
    'realtime.refused': { actions: 'tellApp' },
  },
})

export type MemberMachine = typeof memberMachine
export type MemberRef = ActorRefFrom<MemberMachine>
