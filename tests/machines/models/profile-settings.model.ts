import { createActor, type AnyEventObject } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import type { CurrentUser } from '../../../src/api/types'
import {
  PRIVACY_UPDATE_FAILED,
  PRIVACY_UPDATED,
  PROFILE_UPDATE_FAILED,
  PROFILE_UPDATED,
  profileSettingsMachine,
} from '../../../src/machines/profile-settings/profile-settings.machine'
import { sessionMachine } from '../../../src/machines/session/session.machine'
import { robin, storedRobin } from '../support/fixtures'
import type { MachineModel } from '../support/walks'

// The settings forms' model: each form's save and the server's answers, one region at a time (the other stays idle).
// Walked by tests/machines/profile-settings.test.ts and printed by `npm run paths -- profile-settings`.

export const profileSave = { type: 'settings.profile.save', displayName: 'Robin Renamed', bio: 'Birds and bikes', privateAccount: true }
export const privacySave = { type: 'settings.privacy.save', showSensitiveContent: true, allowDMs: 'following', allowMentions: 'none' }

export const savedProfile: CurrentUser = { ...robin, displayName: 'Robin Renamed', bio: 'Birds and bikes', privateAccount: true }
export const savedPrivacy: CurrentUser = {
  ...robin,
  contentSettings: { showSensitiveContent: true, allowDMs: 'following', allowMentions: 'none' },
}

export const tooLong = new Invalid({ status: 400, message: 'bio must be at most 500 characters', fromServer: true, details: [] })
const offline = new Network({ message: 'Unable to reach the server.' })

const regions = [
  {
    region: 'profile',
    call: 'saveProfile',
    save: profileSave,
    saved: savedProfile,
    toast: PROFILE_UPDATED,
    fallback: PROFILE_UPDATE_FAILED,
    busyTag: 'savingProfile',
    error: (c: { profileError: string | null }) => c.profileError,
    input: { displayName: 'Robin Renamed', bio: 'Birds and bikes', privateAccount: true },
  },
  {
    region: 'privacy',
    call: 'savePrivacy',
    save: privacySave,
    saved: savedPrivacy,
    toast: PRIVACY_UPDATED,
    fallback: PRIVACY_UPDATE_FAILED,
    busyTag: 'savingPrivacy',
    error: (c: { privacyError: string | null }) => c.privacyError,
    input: { showSensitiveContent: true, allowDMs: 'following', allowMentions: 'none' },
  },
] as const

export const profileSettingsModel = {
  name: 'profile-settings',
  machine: profileSettingsMachine,
  walks: regions.map((r) => {
    const events: AnyEventObject[] = [
      r.save,
      { type: `xstate.done.actor.${r.call}`, output: r.saved },
      { type: `xstate.error.actor.${r.call}`, error: tooLong },
      { type: `xstate.error.actor.${r.call}`, error: offline },
    ]
    return {
      ...r,
      name: r.region,
      options: () => ({
        input: { session: createActor(sessionMachine, { input: { stored: storedRobin } }) },
        events,
        serializeState: (s: { value: unknown; context: { profileError: string | null; privacyError: string | null } }) =>
          JSON.stringify({ value: s.value, p: s.context.profileError, q: s.context.privacyError }),
      }),
    }
  }),
} satisfies MachineModel
