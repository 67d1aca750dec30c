import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { isAdmin } from '../../src/machines/session/session.rules'
import { selectIsAdmin, selectShowsSensitive, selectUserId } from '../../src/machines/session/session.selectors'
import { noSession, storedRobin } from './support/fixtures'

// What the session tells the screens about the member: admin or not (the Admin entry and panel), who they are (their
// own posts), and whether sensitive posts show at once.

describe('isAdmin', () => {
  it('is true only for a member the server marked admin', () => {
    expect(isAdmin({ isAdmin: true })).toBe(true)
    expect(isAdmin({ isAdmin: false })).toBe(false)
    expect(isAdmin({})).toBe(false)
    expect(isAdmin(null)).toBe(false)
  })
})

describe('session selectors', () => {
  it('read no admin, no id and no sensitive setting while signed out', () => {
    const session = createActor(sessionMachine, { input: { stored: noSession } })
    const snapshot = session.getSnapshot()
    expect(selectIsAdmin(snapshot)).toBe(false)
    expect(selectUserId(snapshot)).toBeNull()
    expect(selectShowsSensitive(snapshot)).toBe(false)
  })

  it('read the stored member', () => {
    const admin = { ...storedRobin, user: storedRobin.user && { ...storedRobin.user, isAdmin: true } }
    const snapshot = createActor(sessionMachine, { input: { stored: admin } }).getSnapshot()
    expect(selectIsAdmin(snapshot)).toBe(true)
    expect(selectUserId(snapshot)).toBe(storedRobin.user?.id)
    // The stored session keeps no content settings: sensitive posts stay behind their notice until the server says.
    expect(selectShowsSensitive(snapshot)).toBe(false)
  })
})
