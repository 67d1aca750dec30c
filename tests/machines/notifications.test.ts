import { describe, expect, it } from 'vitest'
import { createActor, fromCallback } from 'xstate'
import { notificationsMachine } from '../../src/machines/notifications/notifications.machine'
import { selectUnreadNotifications } from '../../src/machines/notifications/notifications.selectors'
import { notificationsModel } from './models/notifications.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'

// The badge's count. What the member sees after each step: the badge (none at 0, '99+' past 99) and what was asked of
// the server: one read at start, one per poll tick only while the socket is down, one when the socket comes back.

const quiet = fromCallback(() => () => undefined)

describeWalks('notification count', notificationsModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = notificationsMachine.provide({ actors: { loadCount: calls.actor('loadCount'), poll: quiet } })
  const actor = createActor(machine, { inspect }).start()
  expect(calls.started).toEqual([{ id: 'loadCount', input: undefined }])

  for await (const { event, before, snapshot, startedBefore } of replay(actor, { calls })) {
    const { context } = snapshot
    const asked = calls.started.length - startedBefore

    const count = context.unreadCount
    expect(selectUnreadNotifications(snapshot)).toBe(count)
    if (event.type === 'xstate.done.actor.loadCount') expect(count).toBe(event.output)
    if (event.type === 'notifications.count') expect(count).toBe(event.unreadCount)
    if (event.type === 'xstate.error.actor.loadCount') expect(count, 'a failed read keeps the badge').toBe(before.context.unreadCount)
    if (event.type === 'notifications.poll') expect(asked, 'the poll reads only while the socket is down').toBe(before.context.connected ? 0 : 1)
    if (event.type === 'realtime.connected') {
      expect(context.connected).toBe(true)
      expect(asked, 'back online: one read to catch up').toBe(before.matches('idle') ? 1 : 0)
    }
    if (event.type === 'realtime.disconnected') {
      expect(context.connected).toBe(false)
      expect(asked).toBe(0)
    }
    if (event.type.startsWith('notifications.count')) expect(asked, 'a push asks nothing').toBe(0)
  }
  actor.stop()
})

describe('notification count', () => {
  it('counts what the server last said, never below 0', () => {
    const actor = createActor(notificationsMachine.provide({ actors: { poll: quiet, loadCount: new Calls().actor('loadCount') } })).start()
    actor.send({ type: 'notifications.count', unreadCount: 120 })
    expect(selectUnreadNotifications(actor.getSnapshot())).toBe(120)
    actor.send({ type: 'notifications.count', unreadCount: 0 })
    expect(selectUnreadNotifications(actor.getSnapshot())).toBe(0)
    actor.stop()
  })
})
