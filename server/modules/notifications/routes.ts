import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import { pageRequest } from '../../lib/cursor'

export const notificationHandlers = {
  async getNotifications(request) {
    const { filter = 'all', ...paging } = request.query
    const body = await request.server.services.notifications.list(requireAuth(request).user, filter, pageRequest(paging))
    return { status: 200, body }
  },

  async markNotificationRead(request) {
    await request.server.services.notifications.markRead(requireAuth(request).user, request.params.id)
    return { status: 204 }
  },

  async markAllNotificationsRead(request) {
    await request.server.services.notifications.markAllRead(requireAuth(request).user)
    return { status: 204 }
  },

  async getNotificationPreferences(request) {
    const body = await request.server.services.notifications.preferences(requireAuth(request).user)
    return { status: 200, body }
  },

  async updateNotificationPreferences(request) {
    const viewer = requireAuth(request).user
    const body = await request.server.services.notifications.updatePreferences(viewer, request.body)
    return { status: 200, body }
  },
} satisfies Handlers
