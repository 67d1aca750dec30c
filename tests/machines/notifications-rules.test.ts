import { describe, expect, it } from 'vitest'
import type { Notification } from '../../src/api/notifications.calls'
import {
  ACTION_TEXT,
  actors,
  appendPage,
  changedPreferences,
  markAllRead,
  markRead,
  notificationText,
  oneFewer,
  PREFERENCE_TOGGLES,
  samePreferences,
} from '../../src/machines/notifications/notifications.rules'

// The Notifications screen's words and list changes (docs/product.md, "Notifications").

const from = { id: 'u-ana', username: 'ana', displayName: 'Ana', avatar: null, verified: false }
const n = (id: string, read = false): Notification => ({ id, type: 'like', read, createdAt: '2026-01-01T00:00:00.000Z', from, othersCount: 0, post: null })

describe('notification rules', () => {
  it.each([
    ['like', 0, 'Ana liked your post'],
    ['like', 1, 'Ana and 1 other liked your post'],
    ['like', 19, 'Ana and 19 others liked your post'],
    ['repost', 2, 'Ana and 2 others reposted your post'],
    ['reply', 0, 'Ana replied to your post'],
    ['mention', 0, 'Ana mentioned you'],
    ['follow', 3, 'Ana and 3 others followed you'],
    ['follow_request', 0, 'Ana requested to follow you'],
    ['follow_accepted', 0, 'Ana accepted your follow request'],
    ['report', 0, 'Ana reviewed your report'],
    // News about the member's own account names nobody.
    ['export_ready', 0, 'Your data is ready to download'],
    ['poll_closed', 0, 'A poll you created has ended'],
  ] as const)('%s with %i others reads %j', (type, othersCount, text) => {
    expect(notificationText({ type, othersCount, from })).toBe(text)
  })

  it('names an action for every type', () => {
    expect(Object.keys(ACTION_TEXT).sort()).toEqual(['export_ready', 'follow', 'follow_accepted', 'follow_request', 'like', 'mention', 'poll_closed', 'quote', 'reply', 'report', 'repost'])
    expect(ACTION_TEXT.quote).toBe('quoted your post')
  })

  it('never counts negative or fractional others', () => {
    expect(actors('Ana', -3)).toBe('Ana')
    expect(actors('Ana', 2.7)).toBe('Ana and 2 others')
  })

  it('marks one item read, or all, leaving the rest', () => {
    const list = [n('a'), n('b'), n('c', true)]
    expect(markRead(list, 'b').map((x) => x.read)).toEqual([false, true, true])
    expect(markRead(list, 'zz')).toEqual(list)
    expect(markAllRead(list).every((x) => x.read)).toBe(true)
    expect(markRead(list, 'c')[2]).toBe(list[2])
  })

  it('appends a next page without an item twice', () => {
    expect(appendPage([n('a'), n('b')], [n('b'), n('c')]).map((x) => x.id)).toEqual(['a', 'b', 'c'])
  })

  it('never counts below zero', () => {
    expect([oneFewer(3), oneFewer(1), oneFewer(0)]).toEqual([2, 0, 0])
    // 100 means "100 or more": one read leaves an unknown number, so the badge keeps 99+ until the server says.
    expect([oneFewer(100), oneFewer(99)]).toEqual([100, 98])
  })

  it('lists the six toggles in order, and sends only what changed', () => {
    expect(PREFERENCE_TOGGLES.map((t) => t.label)).toEqual(['Likes', 'Reposts', 'Replies', 'Mentions', 'New followers and follow requests', 'Quotes'])
    const on = { like: true, repost: true, reply: true, mention: true, follow: true, quote: true }
    expect(changedPreferences(on, { ...on, like: false, follow: false })).toEqual({ like: false, follow: false })
    expect(changedPreferences(on, on)).toEqual({})
    expect(samePreferences(on, { ...on })).toBe(true)
    expect(samePreferences(on, { ...on, mention: false })).toBe(false)
    expect(samePreferences(null, null)).toBe(true)
    expect(samePreferences(on, null)).toBe(false)
  })
})
