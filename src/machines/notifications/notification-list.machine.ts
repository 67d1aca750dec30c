import { assign, enqueueActions, fromCallback, fromPromise, setup, type ActorRefFrom, type AnyActorRef } from 'xstate'
import { run } from '../../api/calls'
import { notificationCalls, type Notification, type NotificationFilter, type NotificationsPage } from '../../api/notifications.calls'
import { callActor } from '../lib/call-actor'
import { showToast } from '../toasts/notify'
import { ALL_READ, appendPage, markAllRead, markRead, oneFewer } from './notifications.rules'

// The Notifications screen's list (docs/product.md, "Notifications"), one actor per visit. It reads the first page of
// the chosen tab (All, Mentions, Unread: spinner, then rows or 'No notifications yet', or 'failed' with Try again),
// pages on with Load more, and refetches the first page whenever the unread count changes while it is open (the
// badge actor, systemId 'notifications', learns it from the server's push or its socket-down poll). Clicking an unread
// item marks it read at once and tells the server (one call per item, silent when it fails); Mark all as read waits
// for the server and says 'All notifications marked as read' (silent when it fails). Each count it learns goes to the
// badge actor, so the badge follows without waiting for the server's push.

export type NotificationListEvent =
  | { type: 'notifications.filter'; filter: NotificationFilter }
  | { type: 'notifications.retry' }
  | { type: 'notifications.more' }
  /** The member opened this item: an unread one becomes read. */
  | { type: 'notification.open'; id: string }
  | { type: 'notifications.readAll' }
  /** From the count watcher: the badge's count changed. */
  | { type: 'notifications.count'; unreadCount: number }
  /** From a mark-read call (silent either way). */
  | { type: 'notification.read.done'; id: string }
  | { type: 'notification.read.failed'; id: string }

export interface NotificationListContext {
  filter: NotificationFilter
  notifications: ReadonlyArray<Notification>
  nextCursor: string | null
  /** Every unread notification, whatever the tab (the server's count, less what was marked here since). */
  unreadCount: number
  /** The count changed while a call was running: refetch once it is done. */
  stale: boolean
}

export interface PageRequest {
  filter: NotificationFilter
  cursor: string | null
}

const readCallId = (id: string) => `read:${id}`

export const notificationListMachine = setup({
  types: {
    context: {} as NotificationListContext,
    events: {} as NotificationListEvent,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    loadNotifications: fromPromise<NotificationsPage, PageRequest>(({ input, signal }) =>
      run(notificationCalls.getNotifications(input.filter, input.cursor), signal),
    ),
    markAllRead: fromPromise<void>(({ signal }) => run(notificationCalls.markAllRead(), signal)),
    markRead: callActor<{ id: string }, void>((input, signal) => run(notificationCalls.markRead(input.id), signal), {
      done: ({ id }) => ({ type: 'notification.read.done', id }),
      failed: ({ id }) => ({ type: 'notification.read.failed', id }),
    }),
    /** Reports the badge actor's count whenever it changes (none when there is no badge actor). */
    watchCount: fromCallback(({ sendBack, system }) => {
      const badge = system.get('notifications') as AnyActorRef | undefined
      if (!badge) return undefined
      const countOf = (s: unknown) => (s as { context?: { unreadCount?: number } }).context?.unreadCount ?? 0
      let last = countOf(badge.getSnapshot())
      const subscription = badge.subscribe((snapshot) => {
        const count = countOf(snapshot)
        if (count === last) return
        last = count
        sendBack({ type: 'notifications.count', unreadCount: count })
      })
      return () => subscription.unsubscribe()
    }),
  },
  actions: {
    setFilter: assign((_, filter: NotificationFilter) => ({ filter, notifications: [], nextCursor: null })),
    showPage: assign((_, page: NotificationsPage) => ({
      notifications: page.notifications,
      nextCursor: page.nextCursor,
      unreadCount: page.unreadCount,
    })),
    appendPage: assign(({ context }, page: NotificationsPage) => ({
      notifications: appendPage(context.notifications, page.notifications),
      nextCursor: page.nextCursor,
      unreadCount: page.unreadCount,
    })),
    markRead: assign(({ context }, id: string) => ({
      notifications: markRead(context.notifications, id),
      unreadCount: oneFewer(context.unreadCount),
    })),
    markAllRead: assign(({ context }) => ({ notifications: markAllRead(context.notifications), unreadCount: 0 })),
    sendRead: enqueueActions(({ enqueue }, id: string) => {
      enqueue.spawnChild('markRead', { id: readCallId(id), input: { id } })
    }),
    forgetCall: enqueueActions(({ enqueue }, id: string) => enqueue.stopChild(readCallId(id))),
    /** The badge shows what this screen knows. */
    tellBadge: ({ context, system }) => {
      const badge = system.get('notifications') as AnyActorRef | undefined
      badge?.send({ type: 'notifications.count', unreadCount: context.unreadCount })
    },
    notifyAllRead: ({ system }) => showToast(system, 'success', ALL_READ),
    markStale: assign({ stale: true }),
    clearStale: assign({ stale: false }),
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
    hasUnread: ({ context }) => context.unreadCount > 0,
    isOtherFilter: ({ context }, filter: NotificationFilter) => context.filter !== filter,
    isUnreadItem: ({ context }, id: string) => context.notifications.some((n) => n.id === id && !n.read),
    /** A count this screen did not cause: something new arrived, or was read elsewhere. */
    isNewCount: ({ context }, count: number) => context.unreadCount !== count,
    isStale: ({ context }) => context.stale,
  },
}).createMachine({
  id: 'notificationList',
  context: { filter: 'all', notifications: [], nextCursor: null, unreadCount: 0, stale: false },
  invoke: { id: 'watchCount', src: 'watchCount' },
  on: {
    'notifications.filter': {
      guard: { type: 'isOtherFilter', params: ({ event }) => event.filter },
      target: '.loading',
      actions: { type: 'setFilter', params: ({ event }) => event.filter },
    },
    'notification.read.done': { actions: { type: 'forgetCall', params: ({ event }) => event.id } },
    'notification.read.failed': { actions: { type: 'forgetCall', params: ({ event }) => event.id } },
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      entry: 'clearStale',
      invoke: {
        id: 'loadNotifications',
        src: 'loadNotifications',
        input: ({ context }) => ({ filter: context.filter, cursor: null }),
        onDone: { target: 'ready', actions: [{ type: 'showPage', params: ({ event }) => event.output }, 'tellBadge'] },
        onError: { target: 'failed' },
      },
    },
    failed: {
      on: { 'notifications.retry': 'loading' },
    },
    ready: {
      initial: 'idle',
      on: {
        'notification.open': {
          guard: { type: 'isUnreadItem', params: ({ event }) => event.id },
          actions: [{ type: 'markRead', params: ({ event }) => event.id }, { type: 'sendRead', params: ({ event }) => event.id }, 'tellBadge'],
        },
        'notifications.count': {
          guard: { type: 'isNewCount', params: ({ event }) => event.unreadCount },
          actions: 'markStale',
        },
      },
      states: {
        idle: {
          always: { guard: 'isStale', target: 'refreshing' },
          on: {
            'notifications.more': { guard: 'hasMore', target: 'loadingMore' },
            'notifications.readAll': { guard: 'hasUnread', target: 'markingAll' },
          },
        },
        refreshing: {
          entry: 'clearStale',
          invoke: {
            id: 'refresh',
            src: 'loadNotifications',
            input: ({ context }) => ({ filter: context.filter, cursor: null }),
            onDone: { target: 'idle', actions: [{ type: 'showPage', params: ({ event }) => event.output }, 'tellBadge'] },
            // The rows on screen stay; the next change tries again.
            onError: { target: 'idle' },
          },
        },
        loadingMore: {
          tags: ['busy'],
          invoke: {
            id: 'loadMore',
            src: 'loadNotifications',
            input: ({ context }) => ({ filter: context.filter, cursor: context.nextCursor }),
            onDone: { target: 'idle', actions: [{ type: 'appendPage', params: ({ event }) => event.output }, 'tellBadge'] },
            onError: { target: 'idle' },
          },
        },
        markingAll: {
          tags: ['busy'],
          invoke: {
            id: 'markAllRead',
            src: 'markAllRead',
            onDone: { target: 'idle', actions: ['markAllRead', 'tellBadge', 'notifyAllRead'] },
            // Silent: the dots stay, so nothing claims what did not happen.
            onError: { target: 'idle' },
          },
        },
      },
    },
  },
})

export type NotificationListMachine = typeof notificationListMachine
export type NotificationListRef = ActorRefFrom<NotificationListMachine>
