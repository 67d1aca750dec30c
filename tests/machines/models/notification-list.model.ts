import type { AnyEventObject } from 'xstate'
import { Network } from '../../../src/api/errors'
import type { Notification, NotificationsPage } from '../../../src/api/notifications.calls'
import { notificationListMachine } from '../../../src/machines/notifications/notification-list.machine'
import { type MachineModel, scenarioWalks, valueAndContext } from '../support/walks'

// The Notifications screen's list, in four walks that together take every transition: the first load (and Try again),
// the tabs, paging and staying fresh (a count that changes while the screen is open), and reading (one item, all).
// Walked by tests/machines/notification-list.test.ts and printed by `npm run paths -- notification-list`.

const user = (id: string, username: string, displayName: string) => ({ id, username, displayName, avatar: null, verified: false })
const ana = user('u-ana', 'ana', 'Ana')
const ben = user('u-ben', 'ben', 'Ben')

const item = (id: string, type: Notification['type'], rest: Partial<Notification> = {}): Notification => ({
  id,
  type,
  read: false,
  createdAt: '2026-01-01T10:00:00.000Z',
  from: ana,
  othersCount: 0,
  post: type === 'follow' || type === 'follow_request' || type === 'follow_accepted' ? null : { id: `p-${id}`, content: `Post ${id}` },
  ...rest,
})

/** Ana and 19 others liked a post (unread); Ben followed (read); Ana mentioned the member (unread). */
export const firstPage: NotificationsPage = {
  notifications: [item('n-like', 'like', { othersCount: 19 }), item('n-follow', 'follow', { from: ben, read: true }), item('n-mention', 'mention')],
  unreadCount: 3,
  nextCursor: 'c2',
}
export const secondPage: NotificationsPage = {
  notifications: [item('n-mention', 'mention'), item('n-req', 'follow_request', { from: ben })],
  unreadCount: 3,
  nextCursor: null,
}
export const mentionsPage: NotificationsPage = { notifications: [item('n-mention', 'mention')], unreadCount: 3, nextCursor: null }
export const emptyPage: NotificationsPage = { notifications: [], unreadCount: 0, nextCursor: null }
/** After something new: a reply on top. */
export const freshPage: NotificationsPage = {
  notifications: [item('n-reply', 'reply', { from: ben }), ...firstPage.notifications],
  unreadCount: 4,
  nextCursor: 'c2',
}

export const offline = new Network({ message: 'Unable to reach the server.' })

const loaded = { type: 'xstate.done.actor.loadNotifications', output: firstPage }

const scenarios: Record<string, AnyEventObject[]> = {
  'first load': [
    loaded,
    { type: 'xstate.done.actor.loadNotifications', output: emptyPage },
    { type: 'xstate.error.actor.loadNotifications', error: offline },
    { type: 'notifications.retry' },
  ],
  tabs: [
    loaded,
    { type: 'notifications.filter', filter: 'mentions' },
    { type: 'notifications.filter', filter: 'all' },
    { type: 'xstate.done.actor.loadNotifications', output: mentionsPage },
  ],
  'paging and fresh': [
    loaded,
    { type: 'notifications.more' },
    { type: 'xstate.done.actor.loadMore', output: secondPage },
    { type: 'xstate.error.actor.loadMore', error: offline },
    { type: 'notifications.count', unreadCount: 4 },
    { type: 'notifications.count', unreadCount: 3 },
    { type: 'xstate.done.actor.refresh', output: freshPage },
    { type: 'xstate.error.actor.refresh', error: offline },
  ],
  reading: [
    loaded,
    { type: 'notification.open', id: 'n-like' },
    { type: 'notification.open', id: 'n-follow' },
    { type: 'notification.read.done', id: 'n-like' },
    { type: 'notification.read.failed', id: 'n-like' },
    { type: 'notifications.readAll' },
    { type: 'xstate.done.actor.markAllRead' },
    { type: 'xstate.error.actor.markAllRead', error: offline },
  ],
}

const label = (event: AnyEventObject): string | undefined => {
  switch (event.type) {
    case 'xstate.done.actor.loadNotifications': {
      const page = event.output as NotificationsPage
      return page === emptyPage ? 'loaded(empty)' : page === mentionsPage ? 'loaded(mentions)' : 'loaded'
    }
    case 'xstate.done.actor.loadMore':
      return 'loaded more'
    case 'xstate.done.actor.refresh':
      return 'refreshed'
    case 'notifications.filter':
      return `tab(${event.filter as string})`
    case 'notifications.count':
      return `count(${event.unreadCount as number})`
    case 'notification.open':
    case 'notification.read.done':
    case 'notification.read.failed':
      return `${event.type}(${event.id as string})`
    default:
      return undefined
  }
}

export const notificationListModel = {
  name: 'notification-list',
  machine: notificationListMachine,
  walks: scenarioWalks(scenarios, {
    label,
    serializeState: valueAndContext,
    edgesOnly: 'items page in, arrive live and are read, by tab: every order of pages, tabs and news is its own state',
  }),
} satisfies MachineModel
