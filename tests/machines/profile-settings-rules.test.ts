import { beforeEach, describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { profileSettingsMachine } from '../../src/machines/profile-settings/profile-settings.machine'
import {
  AUDIENCES,
  BIO_MAX,
  isPrivacySettings,
  isProfileSettings,
  privacySettingsSchema,
  profileSettingsSchema,
  type ProfileSettingsValues,
} from '../../src/machines/profile-settings/profile-settings.rules'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { Calls } from './support/controlled-actors'
import { storedRobin } from './support/fixtures'
import { installLocalStorage } from './support/memory-storage'
import { perform } from './support/model'

// Settings -> Profile and Privacy & Safety (docs/product.md, "Profile settings"): display name required and at most 50, bio at most 500,
// the audiences in the spec's order, and the machine refusing a save the form would refuse.

const valid: ProfileSettingsValues = { displayName: 'Robin Wren', bio: '', privateAccount: false }

/** The first message on each field, as the form shows it. */
function messages(values: ProfileSettingsValues): Record<string, string> {
  const result = profileSettingsSchema.safeParse(values)
  const shown: Record<string, string> = {}
  for (const issue of result.error?.issues ?? []) shown[issue.path.join('.')] ??= issue.message
  return shown
}

describe('profileSettingsSchema', () => {
  it('display name: required (spaces alone are blank), at most 50', () => {
    expect(messages(valid)).toEqual({})
    expect(messages({ ...valid, displayName: '' })).toEqual({ displayName: 'Display name is required' })
    expect(messages({ ...valid, displayName: '   ' })).toEqual({ displayName: 'Display name is required' })
    expect(messages({ ...valid, displayName: 'a'.repeat(50) })).toEqual({})
    expect(messages({ ...valid, displayName: ` ${'a'.repeat(50)} ` })).toEqual({})
    expect(messages({ ...valid, displayName: 'a'.repeat(51) })).toEqual({ displayName: 'Maximum 50 characters' })
  })

  it('bio: optional, at most 500, and the counter shows the same limit', () => {
    expect(messages({ ...valid, bio: 'a'.repeat(500) })).toEqual({})
    expect(messages({ ...valid, bio: 'a'.repeat(501) })).toEqual({ bio: 'Maximum 500 characters' })
    expect(BIO_MAX).toBe(500)
  })
})

describe('privacySettingsSchema', () => {
  it('offers the spec audiences in order and accepts only those', () => {
    expect(AUDIENCES.map((a) => a.label)).toEqual(['Everyone', 'People I follow', 'No one'])
    for (const { value } of AUDIENCES) {
      expect(privacySettingsSchema.safeParse({ showSensitiveContent: false, allowDMs: value, allowMentions: value }).success).toBe(true)
    }
    expect(privacySettingsSchema.safeParse({ showSensitiveContent: false, allowDMs: 'friends', allowMentions: 'none' }).success).toBe(false)
  })
})

describe('profile-settings machine guards', () => {
  beforeEach(() => {
    installLocalStorage()
  })

  function start() {
    const calls = new Calls()
    const session = createActor(sessionMachine, { input: { stored: storedRobin } })
    const machine = profileSettingsMachine.provide({
      actors: { saveProfile: calls.actor('saveProfile'), savePrivacy: calls.actor('savePrivacy') },
    })
    return { actor: createActor(machine, { input: { session } }).start(), calls }
  }

  it('refuses a profile save the form would refuse; a valid one is sent', async () => {
    const { actor, calls } = start()
    const broken = [{ ...valid, displayName: ' ' }, { ...valid, displayName: 'a'.repeat(51) }, { ...valid, bio: 'a'.repeat(501) }]
    for (const values of broken) {
      expect(isProfileSettings(values)).toBe(false)
      await perform(actor, calls, { type: 'settings.profile.save', ...values })
    }
    expect(actor.getSnapshot().hasTag('savingProfile')).toBe(false)
    expect(calls.started).toEqual([])
    await perform(actor, calls, { type: 'settings.profile.save', ...valid })
    expect(calls.started).toEqual([{ id: 'saveProfile', input: valid }])
  })

  it('refuses a privacy save with an unknown audience', async () => {
    const { actor, calls } = start()
    const values = { showSensitiveContent: true, allowDMs: 'friends', allowMentions: 'none' }
    expect(privacySettingsSchema.safeParse(values).success).toBe(false)
    await perform(actor, calls, { type: 'settings.privacy.save', ...values })
    expect(actor.getSnapshot().hasTag('savingPrivacy')).toBe(false)
    expect(calls.started).toEqual([])
    const good = { showSensitiveContent: true, allowDMs: 'following', allowMentions: 'none' } as const
    expect(isPrivacySettings(good)).toBe(true)
    await perform(actor, calls, { type: 'settings.privacy.save', ...good })
    expect(calls.started).toEqual([{ id: 'savePrivacy', input: good }])
  })
})
