import type { AnyEventObject } from 'xstate'
import { Network } from '../../../src/api/errors'
import { notificationsMachine } from '../../../src/machines/notifications/notifications.machine'
import { type MachineModel, valueAndContext } from '../support/walks'

// The unread notification count behind the Notifications badge, in one walk: the first read (or its silent failure),
// the server's pushes, the socket going down (the 10 s poll reads again) and coming back (one read to catch up).
// Walked by tests/machines/notifications.test.ts and printed by `npm run paths -- notifications`.

export const offline = new Network({ message: 'Unable to reach the server.' })

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.loadCount', output: 4 },
  { type: 'xstate.error.actor.loadCount', error: offline },
  { type: 'notifications.count', unreadCount: 7 },
  { type: 'notifications.count', unreadCount: 0 },
  { type: 'notifications.poll' },
  { type: 'realtime.connected' },
  { type: 'realtime.disconnected', reason: 'transport close' },
]

const label = (event: AnyEventObject): string | undefined => {
  switch (event.type) {
    case 'xstate.done.actor.loadCount':
      return `loaded(${event.output as number})`
    case 'notifications.count':
      return `count(${event.unreadCount as number})`
    default:
      return undefined
  }
}

export const notificationsModel = {
  name: 'notifications',
  machine: notificationsMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events,
        label,
        serializeState: valueAndContext,
        edgesOnly: 'the unread count changes with every realtime event and reload: every order of them is its own state',
      }),
    },
  ],
} satisfies MachineModel
