import { assign, fromCallback, type AnyEventObject, type EventObject } from 'xstate'
import { memberMachine } from '../../../src/machines/member/member.machine'
import type { MachineModel } from '../support/walks'

// The member actor's later region: the code of the conversation list, the composer and the share actor waits for the
// first screen unless a screen needs it or tells one of them something (kept meanwhile, the latest for each), loads,
// and is asked again after a failed load; the socket's ups and downs are kept for the list.
// Walked by tests/machines/member.test.ts and printed by `npm run paths -- member`.

export const idle = fromCallback<EventObject>(() => () => undefined)

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.firstScreen' },
  { type: 'member.later.needed' },
  { type: 'member.tell', to: 'composer', event: { type: 'composer.open' } },
  { type: 'member.tell', to: 'composer', event: { type: 'composer.quote', postId: 'post-1' } },
  { type: 'member.tell', to: 'share', event: { type: 'share.post', postId: 'post-1' } },
  { type: 'xstate.done.actor.loadLater', output: { conversations: idle, composer: idle, share: idle } },
  { type: 'xstate.error.actor.loadLater', error: new Error('chunk failed') },
  { type: 'realtime.connected' },
  { type: 'realtime.disconnected', reason: 'transport close' },
  { type: 'realtime.refused', reason: 'Session expired or revoked' },
]

export const memberModel = {
  name: 'member',
  // Without the app around it: what would go up to the app is dropped (the test records it instead).
  machine: memberMachine.provide({
    actors: { posts: idle, notifications: idle, realtime: idle, firstScreen: idle, loadLater: idle } as never,
    // Nothing later is spawned while walking (a graph walk shares one system: its systemIds would repeat); what it
    // would have been handed is dropped with it.
    actions: {
      tellApp: () => undefined,
      tellConversations: () => undefined,
      passTold: () => undefined,
      spawnLater: assign({ waiting: {} }),
    },
  }),
  walks: [
    {
      name: '',
      options: () => ({
        input: { userId: 'user-ann', token: 'token-ann' },
        events,
        serializeState: (s: { value: unknown; context: unknown }) => JSON.stringify([s.value, s.context]),
        edgesOnly: 'what waits for the composer and the share actor is context: every order of tells, loads and socket changes is its own state',
      }),
    },
  ],
} satisfies MachineModel
