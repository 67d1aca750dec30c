import { expect } from 'vitest'
import { createActor } from 'xstate'
import {
  NOTIFICATION_SETTINGS_UPDATED,
  notificationPreferencesMachine,
} from '../../src/machines/notification-preferences/notification-preferences.machine'
import { notificationPreferencesModel, refused } from './models/notification-preferences.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// Settings -> Notifications. What the member sees after each step: the spinner or Try again, the five toggles as the
// draft holds them, Save busy while saving (and only sent when something changed, with only what changed), the toast
// on success, the reason under the form on failure (the toggles kept as set).

describeWalks('notification preferences', notificationPreferencesModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = notificationPreferencesMachine.provide({
    actors: { loadPreferences: calls.actor('loadPreferences'), savePreferences: calls.actor('savePreferences') },
  })
  const actor = withToasts(createActor(machine, { inspect })).start()
  expect(calls.started).toEqual([{ id: 'loadPreferences', input: undefined }])

  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, { calls })) {
    const { context } = snapshot
    const started = calls.started.slice(startedBefore)
    const toasts = shownToasts()

    expect(snapshot.hasTag('loading')).toBe(snapshot.matches('loading'))
    expect(snapshot.hasTag('saving')).toBe(snapshot.matches({ ready: 'saving' }))
    if (event.type === 'preferences.toggle') expect(context.draft?.[event.key as 'like']).toBe(event.on)
    if (event.type === 'preferences.save') {
      // Only what changed goes to the server; nothing changed, nothing is sent.
      const changed = before.context.draft?.like !== before.context.saved?.like
      expect(started).toEqual(changed ? [{ id: 'savePreferences', input: { like: before.context.draft?.like } }] : [])
      expect(context.error).toBeNull()
    }
    if (event.type === 'xstate.done.actor.savePreferences') {
      expect([context.saved, context.draft]).toEqual([event.output, event.output])
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: NOTIFICATION_SETTINGS_UPDATED })
    } else {
      expect(toasts.length).toBe(toastsBefore)
    }
    if (event.type === 'xstate.error.actor.savePreferences') {
      expect(context.error).toBe(refused.message)
      expect(context.draft, 'the toggles stay as set').toEqual(before.context.draft)
      expect(context.saved).toEqual(before.context.saved)
    }
  }
  actor.stop()
})

