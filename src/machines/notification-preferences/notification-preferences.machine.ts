import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { notificationCalls, type NotificationPreferences } from '../../api/notifications.calls'
import { changedPreferences, samePreferences } from '../notifications/notifications.rules'
import { showToast } from '../toasts/notify'

// Settings -> Notifications (docs/product.md, "Notifications"): five toggles (Likes, Reposts, Replies, Mentions, New
// followers and follow requests) read from GET /notifications/preferences (spinner, or an error with Try again). The
// toggles change a draft here; Save sends only the kinds that changed (PATCH), takes the server's answer as the saved
// state and says 'Notification settings updated', like the privacy form. A refused save keeps the draft and says why
// under the form, so a member never believes a change that never happened.

export const NOTIFICATION_SETTINGS_UPDATED = 'Notification settings updated'
export const NOTIFICATION_SETTINGS_FAILED = 'Failed to update notification settings'

export type PreferenceKey = keyof NotificationPreferences

export type NotificationPreferencesEvent =
  | { type: 'preferences.toggle'; key: PreferenceKey; on: boolean }
  | { type: 'preferences.save' }
  | { type: 'preferences.retry' }

export interface NotificationPreferencesContext {
  /** What the server holds (null until read). */
  saved: NotificationPreferences | null
  /** What the toggles show. */
  draft: NotificationPreferences | null
  error: string | null
}

export const notificationPreferencesMachine = setup({
  types: {
    context: {} as NotificationPreferencesContext,
    events: {} as NotificationPreferencesEvent,
    tags: {} as 'loading' | 'saving',
  },
  actors: {
    loadPreferences: fromPromise<NotificationPreferences>(({ signal }) => run(notificationCalls.getPreferences(), signal)),
    savePreferences: fromPromise<NotificationPreferences, Partial<NotificationPreferences>>(({ input, signal }) =>
      run(notificationCalls.updatePreferences(input), signal),
    ),
  },
  actions: {
    setSaved: assign((_, preferences: NotificationPreferences) => ({ saved: preferences, draft: preferences, error: null })),
    toggle: assign(({ context }, change: { key: PreferenceKey; on: boolean }) =>
      context.draft ? { draft: { ...context.draft, [change.key]: change.on } } : {},
    ),
    setError: assign((_, error: string | null) => ({ error })),
    notifySaved: ({ system }) => showToast(system, 'success', NOTIFICATION_SETTINGS_UPDATED),
  },
  guards: {
    isDirty: ({ context }) => !samePreferences(context.saved, context.draft),
  },
}).createMachine({
  id: 'notificationPreferences',
  context: { saved: null, draft: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadPreferences',
        src: 'loadPreferences',
        onDone: { target: 'ready', actions: { type: 'setSaved', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    failed: {
      on: { 'preferences.retry': 'loading' },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'preferences.toggle': { actions: { type: 'toggle', params: ({ event }) => event } },
            'preferences.save': { guard: 'isDirty', target: 'saving' },
          },
        },
        saving: {
          tags: ['saving'],
          entry: { type: 'setError', params: null },
          invoke: {
            id: 'savePreferences',
            src: 'savePreferences',
            input: ({ context }) =>
              context.saved && context.draft ? changedPreferences(context.saved, context.draft) : {},
            onDone: { target: 'idle', actions: [{ type: 'setSaved', params: ({ event }) => event.output }, 'notifySaved'] },
            onError: {
              target: 'idle',
              actions: { type: 'setError', params: ({ event }) => serverMessageOr(event.error, NOTIFICATION_SETTINGS_FAILED) },
            },
          },
        },
      },
    },
  },
})

export type NotificationPreferencesMachine = typeof notificationPreferencesMachine
export type NotificationPreferencesRef = ActorRefFrom<NotificationPreferencesMachine>
