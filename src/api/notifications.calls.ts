import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'

// The viewer's notifications and which kinds they receive (openapi.yaml, /notifications*; docs/product.md,
// "Notifications"), in the style of calls.ts: every call is an Effect failing only with a typed ApiError; reads retry
// once on a transient failure, writes never.

type Schemas = components['schemas']

export type Notification = Schemas['Notification']
export type NotificationType = Notification['type']
export type NotificationsPage = Schemas['NotificationsPage']
export type NotificationPreferences = Schemas['NotificationPreferences']
export type NotificationFilter = 'all' | 'mentions' | 'unread'

export function makeNotificationCalls(client: ApiClient) {
  return {
    /** One page, newest first; `unreadCount` counts every unread notification whatever the filter. */
    getNotifications: (
      filter: NotificationFilter = 'all',
      cursor?: string | null,
      limit?: number,
    ): Effect.Effect<NotificationsPage, ApiError> =>
      query<NotificationsPage>((signal) =>
        client.GET('/notifications', {
          params: { query: { filter, ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) } },
          signal,
        }),
      ),

    markRead: (id: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.PATCH('/notifications/{id}/read', { params: { path: { id } }, signal })).pipe(
        Effect.asVoid,
      ),

    markAllRead: (): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.PATCH('/notifications/read-all', { signal })).pipe(Effect.asVoid),

    getPreferences: (): Effect.Effect<NotificationPreferences, ApiError> =>
      query<NotificationPreferences>((signal) => client.GET('/notifications/preferences', { signal })),

    /** Answers the preferences now. */
    updatePreferences: (changes: Partial<NotificationPreferences>): Effect.Effect<NotificationPreferences, ApiError> =>
      mutation<NotificationPreferences>((signal) => client.PATCH('/notifications/preferences', { body: changes, signal })),
  }
}

export type NotificationCalls = ReturnType<typeof makeNotificationCalls>

/** The app's notification calls on the app's client. */
export const notificationCalls: NotificationCalls = makeNotificationCalls(api)
