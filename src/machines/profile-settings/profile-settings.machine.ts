import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import type { CurrentUser } from '../../api/types'
import { userCalls, type UpdatePrivacyRequest, type UpdateProfileRequest } from '../../api/users.calls'
import type { SessionRef } from '../session/session-ref'
import { showToast } from '../toasts/notify'
import { isPrivacySettings, isProfileSettings } from './profile-settings.rules'

// Settings -> Profile and Settings -> Privacy & Safety. The forms check their fields (react-hook-form + zod, with
// profile-settings.rules.ts, whose schemas also guard the saves here) and fill from the session's user (what GET
// /auth/me answered); this machine saves them. Each form saves on its own, so the two run side by side. A save
// stores the server's answer as the session's user, which refills the forms, and shows 'Profile updated' / 'Privacy
// settings updated'. A refused save keeps the form as typed and says why under it, so a member never believes a change
// that never happened (docs/product.md, "Profile settings").

export const PROFILE_UPDATED = 'Profile updated'
export const PRIVACY_UPDATED = 'Privacy settings updated'
export const PROFILE_UPDATE_FAILED = 'Failed to update profile'
export const PRIVACY_UPDATE_FAILED = 'Failed to update privacy settings'

export type ProfileSettingsEvent =
  | ({ type: 'settings.profile.save' } & Required<UpdateProfileRequest>)
  | ({ type: 'settings.privacy.save' } & Required<UpdatePrivacyRequest>)

export interface ProfileSettingsContext {
  session: SessionRef
  profileError: string | null
  privacyError: string | null
}

export const profileSettingsMachine = setup({
  types: {
    context: {} as ProfileSettingsContext,
    events: {} as ProfileSettingsEvent,
    input: {} as { session: SessionRef },
    tags: {} as 'savingProfile' | 'savingPrivacy',
  },
  actors: {
    saveProfile: fromPromise<CurrentUser, UpdateProfileRequest>(({ input, signal }) =>
      run(userCalls.updateProfile(input), signal),
    ),
    savePrivacy: fromPromise<CurrentUser, UpdatePrivacyRequest>(({ input, signal }) =>
      run(userCalls.updatePrivacy(input), signal),
    ),
  },
  actions: {
    tellSession: sendTo(
      ({ context }) => context.session,
      (_, me: CurrentUser) => ({ type: 'session.user.updated' as const, user: me }),
    ),
    notifySuccess: ({ system }, message: string) => showToast(system, 'success', message),
    setProfileError: assign((_, message: string | null) => ({ profileError: message })),
    setPrivacyError: assign((_, message: string | null) => ({ privacyError: message })),
  },
  guards: {
    isValidProfile: (_, values: Required<UpdateProfileRequest>) => isProfileSettings(values),
    isValidPrivacy: (_, values: Required<UpdatePrivacyRequest>) => isPrivacySettings(values),
  },
}).createMachine({
  id: 'profileSettings',
  context: ({ input }) => ({ session: input.session, profileError: null, privacyError: null }),
  type: 'parallel',
  states: {
    profile: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'settings.profile.save': { guard: { type: 'isValidProfile', params: ({ event }) => event }, target: 'saving' },
          },
        },
        saving: {
          tags: ['savingProfile'],
          entry: { type: 'setProfileError', params: null },
          invoke: {
            id: 'saveProfile',
            src: 'saveProfile',
            input: ({ event }) => {
              assertEvent(event, 'settings.profile.save')
              return { displayName: event.displayName, bio: event.bio, privateAccount: event.privateAccount }
            },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'tellSession', params: ({ event }) => event.output },
                { type: 'notifySuccess', params: PROFILE_UPDATED },
              ],
            },
            onError: {
              target: 'failed',
              actions: {
                type: 'setProfileError',
                params: ({ event }) => serverMessageOr(event.error, PROFILE_UPDATE_FAILED),
              },
            },
          },
        },
        failed: {
          on: {
            'settings.profile.save': { guard: { type: 'isValidProfile', params: ({ event }) => event }, target: 'saving' },
          },
        },
      },
    },
    privacy: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'settings.privacy.save': { guard: { type: 'isValidPrivacy', params: ({ event }) => event }, target: 'saving' },
          },
        },
        saving: {
          tags: ['savingPrivacy'],
          entry: { type: 'setPrivacyError', params: null },
          invoke: {
            id: 'savePrivacy',
            src: 'savePrivacy',
            input: ({ event }) => {
              assertEvent(event, 'settings.privacy.save')
              return {
                showSensitiveContent: event.showSensitiveContent,
                allowDMs: event.allowDMs,
                allowMentions: event.allowMentions,
              }
            },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'tellSession', params: ({ event }) => event.output },
                { type: 'notifySuccess', params: PRIVACY_UPDATED },
              ],
            },
            onError: {
              target: 'failed',
              actions: {
                type: 'setPrivacyError',
                params: ({ event }) => serverMessageOr(event.error, PRIVACY_UPDATE_FAILED),
              },
            },
          },
        },
        failed: {
          on: {
            'settings.privacy.save': { guard: { type: 'isValidPrivacy', params: ({ event }) => event }, target: 'saving' },
          },
        },
      },
    },
  },
})

export type ProfileSettingsMachine = typeof profileSettingsMachine
