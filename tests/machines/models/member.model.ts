import { fromCallback, type AnyEventObject, type EventObject } from 'xstate'
import { memberMachine } from '../../../src/machines/member/member.machine'
import type { MachineModel } from '../support/walks'

// The member actor's messaging region: the conversation list's code waits for the first screen unless a
// screen needs it, loads, and is asked again after a failed load; the socket's ups and downs are kept for the list.
// Walked by tests/machines/member.test.ts and printed by `npm run paths -- member`.

export const idle = fromCallback<EventObject>(() => () => undefined)

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.firstScreen' },
  { type: 'member.messaging.needed' },
  { type: 'xstate.done.actor.loadMessaging', output: idle },
  { type: 'xstate.error.actor.loadMessaging', error: new Error('chunk failed') },
  { type: 'realtime.connected' },
  { type: 'realtime.disconnected', reason: 'transport close' },
  { type: 'realtime.refused', reason: 'Session expired or revoked' },
]

export const memberModel = {
  name: 'member',
  // Without the app around it: what would go up to the app is dropped (the test records it instead).
  machine: memberMachine.provide({
    actors: { posts: idle, composer: idle, notifications: idle, realtime: idle, firstScreen: idle, loadMessaging: idle } as never,
    // The list is never spawned while walking (a graph walk shares one system: its systemId would repeat).
    actions: { tellApp: () => undefined, tellConversations: () => undefined, spawnConversations: () => undefined },
  }),
  walks: [
    {
      name: '',
      options: () => ({
        input: { userId: 'user-ann', token: 'token-ann' },
        events,
        serializeState: (s: { value: unknown; context: unknown }) => JSON.stringify([s.value, s.context]),
      }),
    },
  ],
} satisfies MachineModel
