import { beforeEach, describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { PRIVACY_UPDATED, PROFILE_UPDATED, profileSettingsMachine } from '../../src/machines/profile-settings/profile-settings.machine'
import { shownToasts, withToasts } from './support/toasts'
import { privacySave, profileSave, profileSettingsModel, savedPrivacy, savedProfile, tooLong } from './models/profile-settings.model'
import { Calls } from './support/controlled-actors'
import { robin } from './support/fixtures'
import { installLocalStorage } from './support/memory-storage'
import { describeWalks, perform } from './support/model'
import { signedInSession } from './support/signed-in'

// Settings -> Profile and Privacy & Safety. What the member sees: the Save button busy while saving, the toast on
// success, the reason under the form on failure, and (through the session) the shell and the forms showing the
// saved values. The two forms save independently: their regions are walked one at a time, each with the other idle.
// The walks and events are the model's (./models/profile-settings.model.ts), shared with
// `npm run paths -- profile-settings`.

beforeEach(() => {
  installLocalStorage()
})

describeWalks('profile-settings machine', profileSettingsModel, async ({ walk, inspect, replay }) => {
  const calls = new Calls()
  const session = await signedInSession()
  const machine = profileSettingsMachine.provide({
    actors: { saveProfile: calls.actor('saveProfile'), savePrivacy: calls.actor('savePrivacy') },
  })
  const actor = withToasts(createActor(machine, { input: { session }, inspect })).start()

  for await (const { event, snapshot, toastsBefore } of replay(actor, { calls, context: false })) {
    const toasts = shownToasts()
    const busy = snapshot.hasTag(walk.busyTag)
    expect(busy).toBe(snapshot.matches({ [walk.region]: 'saving' }))
    // The other form is untouched.
    expect(snapshot.hasTag(walk.busyTag === 'savingProfile' ? 'savingPrivacy' : 'savingProfile')).toBe(false)

    if (event.type === walk.save.type) {
      expect(calls.started.at(-1)).toEqual({ id: walk.call, input: walk.input })
      expect(walk.error(snapshot.context), 'a new try clears the old reason').toBeNull()
      expect(toasts.length).toBe(toastsBefore)
    } else if (event.type.startsWith('xstate.done.actor.')) {
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: walk.toast })
      // The session holds the server's answer: the shell and the refilled form show what was saved.
      expect(session.getSnapshot().context.user).toMatchObject(walk.saved)
      expect(walk.error(snapshot.context)).toBeNull()
    } else if (event.type.startsWith('xstate.error.actor.')) {
      expect(walk.error(snapshot.context)).toBe(event.error === tooLong ? tooLong.message : walk.fallback)
      expect(toasts.length, 'the reason shows under the form, not as a toast').toBe(toastsBefore)
      expect(session.getSnapshot().context.user).toMatchObject({ displayName: robin.displayName, bio: robin.bio })
    }
  }
  actor.stop()
  session.stop()
})

describe('profile-settings machine (both forms)', () => {
  it('saves both forms at once, each with its own toast', async () => {
    const calls = new Calls()
    const session = await signedInSession()
    const machine = profileSettingsMachine.provide({
      actors: { saveProfile: calls.actor('saveProfile'), savePrivacy: calls.actor('savePrivacy') },
    })
    const actor = withToasts(createActor(machine, { input: { session } })).start()
    await perform(actor, calls, profileSave)
    await perform(actor, calls, privacySave)
    expect(actor.getSnapshot().value).toEqual({ profile: 'saving', privacy: 'saving' })
    await perform(actor, calls, { type: 'xstate.done.actor.savePrivacy', output: savedPrivacy })
    await perform(actor, calls, { type: 'xstate.done.actor.saveProfile', output: savedProfile })
    expect(shownToasts().map((t) => t.message)).toEqual([PRIVACY_UPDATED, PROFILE_UPDATED])
    expect(actor.getSnapshot().value).toEqual({ profile: 'idle', privacy: 'idle' })
    actor.stop()
    session.stop()
  })
})
