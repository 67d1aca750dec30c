import { assign, fromCallback, fromPromise, setup, type ActorRefFrom } from 'xstate'
import { run } from '../../api/calls'
import { notificationCalls } from '../../api/notifications.calls'

// The member's unread notification count, for the badge on Notifications in the sidebar and bottom bar
// (docs/product.md, "Notifications"): one actor for the session (systemId 'notifications', spawned by the member
// actor) so the realtime actor can reach it. It reads the count once (GET /notifications?limit=1), then takes every
// count the server pushes (`notification` on the socket, delivered as `notifications.count`) and every count the
// Notifications screen learns (a page it loaded, an item it marked read). While the socket is down it asks again
// every 10 s; when the socket comes back it asks once, for what it missed. A failed read is silent: the badge keeps
// its count and the next tick (or reconnect) tries again.

export const REFETCH_MS = 10_000

export type NotificationsEvent =
  /** The unread count now: from the realtime actor (the server's push) or from the Notifications screen. */
  | { type: 'notifications.count'; unreadCount: number }
  /** From the poll actor, every REFETCH_MS: refetch unless the socket is up. */
  | { type: 'notifications.poll' }
  /** From the member actor: the socket's state. */
  | { type: 'realtime.connected' }
  | { type: 'realtime.disconnected'; reason?: string }

export interface NotificationsContext {
  unreadCount: number
  /** The socket is up: the server pushes the count and the 10 s poll stands down. */
  connected: boolean
}

export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
  },
  actors: {
    loadCount: fromPromise<number>(({ signal }) =>
      run(notificationCalls.getNotifications('all', null, 1), signal).then((page) => page.unreadCount),
    ),
    /** Ticks every REFETCH_MS for the socket-down fallback; the actor decides whether a tick refetches. */
    poll: fromCallback(({ sendBack }) => {
      const timer = setInterval(() => sendBack({ type: 'notifications.poll' }), REFETCH_MS)
      return () => clearInterval(timer)
    }),
  },
  actions: {
    setCount: assign((_, unreadCount: number) => ({ unreadCount: Math.max(0, unreadCount) })),
    setConnected: assign((_, connected: boolean) => ({ connected })),
  },
  guards: {
    socketDown: ({ context }) => !context.connected,
  },
}).createMachine({
  id: 'notifications',
  context: { unreadCount: 0, connected: false },
  invoke: { id: 'poll', src: 'poll' },
  on: {
    'notifications.count': { actions: { type: 'setCount', params: ({ event }) => event.unreadCount } },
    'realtime.disconnected': { actions: { type: 'setConnected', params: false } },
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadCount',
        src: 'loadCount',
        onDone: { target: 'idle', actions: { type: 'setCount', params: ({ event }) => event.output } },
        onError: { target: 'idle' },
      },
      on: {
        'realtime.connected': { actions: { type: 'setConnected', params: true } },
      },
    },
    idle: {
      on: {
        'notifications.poll': { guard: 'socketDown', target: 'loading' },
        // Back online: one read catches up with what was pushed while the socket was down.
        'realtime.connected': { target: 'loading', actions: { type: 'setConnected', params: true } },
      },
    },
  },
})

export type NotificationsMachine = typeof notificationsMachine
export type NotificationsRef = ActorRefFrom<NotificationsMachine>
