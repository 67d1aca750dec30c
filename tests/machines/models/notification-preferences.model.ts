import type { AnyEventObject } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import type { NotificationPreferences } from '../../../src/api/notifications.calls'
import { notificationPreferencesMachine } from '../../../src/machines/notification-preferences/notification-preferences.machine'
import { type MachineModel, valueAndContext } from '../support/walks'

// Settings -> Notifications: the read (and Try again), the toggles, Save and the server's answers, in one walk.
// Walked by tests/machines/notification-preferences.test.ts and printed by `npm run paths -- notification-preferences`.

export const allOn: NotificationPreferences = { like: true, repost: true, reply: true, mention: true, follow: true, quote: true }
export const likesOff: NotificationPreferences = { ...allOn, like: false }
export const refused = new Invalid({ status: 400, message: 'like must be a boolean', fromServer: true, details: [] })
export const offline = new Network({ message: 'Unable to reach the server.' })

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.loadPreferences', output: allOn },
  { type: 'xstate.error.actor.loadPreferences', error: offline },
  { type: 'preferences.retry' },
  { type: 'preferences.toggle', key: 'like', on: false },
  { type: 'preferences.toggle', key: 'like', on: true },
  { type: 'preferences.save' },
  { type: 'xstate.done.actor.savePreferences', output: likesOff },
  { type: 'xstate.error.actor.savePreferences', error: refused },
]

const label = (event: AnyEventObject): string | undefined => {
  switch (event.type) {
    case 'preferences.toggle':
      return `${event.key as string} ${event.on ? 'on' : 'off'}`
    case 'xstate.done.actor.savePreferences':
      return 'saved'
    case 'xstate.done.actor.loadPreferences':
      return 'loaded'
    default:
      return undefined
  }
}

export const notificationPreferencesModel = {
  name: 'notification-preferences',
  machine: notificationPreferencesMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events,
        label,
        serializeState: valueAndContext,
      }),
    },
  ],
} satisfies MachineModel
