import { expect } from 'vitest'
import { assign, createActor, fromCallback, setup, type AnyEventObject } from 'xstate'
import { notificationListMachine } from '../../src/machines/notifications/notification-list.machine'
import { ALL_READ } from '../../src/machines/notifications/notifications.rules'
import {
  selectCanMarkAll,
  selectEmpty,
  selectFailed,
  selectHasMore,
  selectLoading,
  selectRows,
} from '../../src/machines/notifications/notifications.selectors'
import { notificationListModel } from './models/notification-list.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The Notifications screen's list. What the member sees after each step: the spinner, the rows and their unread dots,
// Load more, Mark all as read (only while something is unread), the empty text, the toasts (only 'All notifications
// marked as read'; every notification call fails silently), what was asked of the server, and what the badge was told.

const quiet = fromCallback(() => () => undefined)

/** The badge actor, as a recorder of what the screen told it. */
const badge = setup({ types: { context: {} as { heard: AnyEventObject[] }, events: {} as AnyEventObject } }).createMachine({
  context: { heard: [] },
  on: { '*': { actions: assign({ heard: ({ context, event }) => [...context.heard, event] }) } },
})

describeWalks('notification list', notificationListModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = notificationListMachine.provide({
    actors: { loadNotifications: calls.invoked(), markAllRead: calls.actor('markAllRead'), markRead: calls.actor('markRead') as never, watchCount: quiet },
  })
  const actor = withToasts(createActor(machine, { inspect }))
  const told = createActor(badge, { parent: actor, systemId: 'notifications' }).start()
  actor.start()
  const toldBadge = () => told.getSnapshot().context.heard.map((e) => e.unreadCount as number)
  expect(calls.started).toEqual([{ id: 'loadNotifications', input: { filter: 'all', cursor: null } }])

  const replayed = replay(actor, {
    calls,
    mark: () => ({ toldBefore: toldBadge().length }),
  })
  for await (const { event, before, snapshot, toastsBefore, startedBefore, marked: { toldBefore } } of replayed) {
    const { context } = snapshot
    const rows = selectRows(snapshot)
    const started = calls.started.slice(startedBefore)
    const toasts = shownToasts()
    const told = toldBadge().slice(toldBefore)

    expect(selectLoading(snapshot)).toBe(snapshot.matches('loading'))
    expect(selectFailed(snapshot)).toBe(snapshot.matches('failed'))
    expect(selectCanMarkAll(snapshot), 'Mark all as read only when something is unread').toBe(snapshot.matches('ready') && context.unreadCount > 0)
    expect(selectEmpty(snapshot)).toBe(snapshot.matches('ready') && rows.length === 0)
    expect(selectHasMore(snapshot)).toBe(snapshot.matches('ready') && context.nextCursor !== null)
    expect(new Set(rows.map((r) => r.id)).size, 'no item twice').toBe(rows.length)
    const like = rows.find((r) => r.id === 'n-like')
    if (like) {
      expect(like.text).toBe('Ana and 19 others liked your post')
      expect(like.href).toBe('/post/p-n-like')
    }
    const follow = rows.find((r) => r.id === 'n-follow')
    if (follow) expect([follow.text, follow.href]).toEqual(['Ben followed you', '/profile/ben'])
    const request = rows.find((r) => r.id === 'n-req')
    if (request) expect([request.text, request.href]).toEqual(['Ben requested to follow you', '/settings?tab=privacy'])

    if (event.type === 'notifications.filter') {
      expect(context.filter).toBe(event.filter)
      expect(started).toEqual([{ id: 'loadNotifications', input: { filter: event.filter, cursor: null } }])
      expect(rows).toEqual([])
    }
    if (event.type === 'notifications.retry') expect(started).toEqual([{ id: 'loadNotifications', input: { filter: context.filter, cursor: null } }])
    if (event.type === 'notifications.more') expect(started).toEqual([{ id: 'loadMore', input: { filter: context.filter, cursor: 'c2' } }])
    if (event.type === 'xstate.done.actor.loadMore') {
      // The next page goes after the rows shown, without an item twice.
      const shown = before.context.notifications.map((n) => n.id)
      expect(rows.map((r) => r.id)).toEqual([...shown, ...['n-mention', 'n-req'].filter((id) => !shown.includes(id))])
    }
    if (event.type === 'xstate.error.actor.loadMore' || event.type === 'xstate.error.actor.refresh') {
      expect(context.notifications, 'a failed page keeps the rows').toEqual(before.context.notifications)
    }
    if (event.type === 'notifications.count') {
      // A count the screen did not cause refetches the first page (at once when idle).
      const changed = event.unreadCount !== before.context.unreadCount
      const idle = before.matches({ ready: 'idle' })
      expect(started).toEqual(changed && idle ? [{ id: 'refresh', input: { filter: context.filter, cursor: null } }] : [])
    }
    if (event.type === 'xstate.done.actor.refresh') expect(rows.map((r) => r.id)[0]).toBe('n-reply')
    if (event.type === 'notification.open') {
      const wasUnread = before.context.notifications.some((n) => n.id === event.id && !n.read)
      expect(rows.find((r) => r.id === event.id)?.read).toBe(true)
      expect(started).toEqual(wasUnread ? [{ id: 'markRead', input: { id: event.id } }] : [])
      expect(context.unreadCount).toBe(wasUnread ? before.context.unreadCount - 1 : before.context.unreadCount)
      expect(told).toEqual(wasUnread ? [context.unreadCount] : [])
    }
    if (event.type === 'notification.read.failed') expect(context, 'silent: the item stays read').toEqual(before.context)
    if (event.type === 'notifications.readAll') expect(started).toEqual([{ id: 'markAllRead', input: undefined }])
    if (event.type === 'xstate.done.actor.markAllRead') {
      expect(rows.every((r) => r.read)).toBe(true)
      expect(told).toEqual([0])
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: ALL_READ })
    } else {
      expect(toasts.length, 'notification calls fail silently; only mark-all says anything').toBe(toastsBefore)
    }
    if (event.type === 'xstate.error.actor.markAllRead') expect(context.notifications).toEqual(before.context.notifications)
    if (event.type.startsWith('xstate.done.actor.load') || event.type === 'xstate.done.actor.refresh') {
      expect(told, "the badge hears the server's count").toEqual([(event.output as { unreadCount: number }).unreadCount])
    }
  }
  actor.stop()
})

