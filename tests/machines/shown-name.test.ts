import { describe, expect, it } from 'vitest'
import { shownName } from '../../src/machines/lib/shown-name'
import { notificationText } from '../../src/machines/notifications/notifications.rules'

describe('shownName: the one name every screen shows for a member', () => {
  it('is the display name', () => {
    expect(shownName({ displayName: 'Robin Wren', username: 'robin' })).toBe('Robin Wren')
  })

  it('trims the display name', () => {
    expect(shownName({ displayName: '  Robin Wren \n', username: 'robin' })).toBe('Robin Wren')
  })

  it('is the plain username when the display name is empty, blank or missing', () => {
    expect(shownName({ displayName: '', username: 'robin' })).toBe('robin')
    expect(shownName({ displayName: '   ', username: 'robin' })).toBe('robin')
    expect(shownName({ displayName: null, username: 'robin' })).toBe('robin')
    expect(shownName({ username: 'robin' })).toBe('robin')
  })

  it('is empty for nobody (a member not loaded yet)', () => {
    expect(shownName(null)).toBe('')
    expect(shownName(undefined)).toBe('')
  })
})

describe('the machines name members by the same rule', () => {
  it('a notification from a member without a display name reads with the username', () => {
    const from = { id: 'u-ana', username: 'ana', displayName: ' ', avatar: null, verified: false }
    expect(notificationText({ type: 'like', othersCount: 1, from })).toBe('ana and 1 other liked your post')
  })
})
