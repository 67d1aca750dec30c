import { ANALYTICS } from '../../../src/api/contract/analytics'
import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'

// The yaml refuses any timeRange but 7d, 30d and 90d (400) before a handler runs; absent means the default.
export const analyticsHandlers = {
  async getUserAnalytics(request) {
    const { timeRange = ANALYTICS.defaultRange } = request.query
    const body = await request.server.services.analytics.user(requireAuth(request).user, timeRange)
    return { status: 200, body }
  },

  async getPostAnalytics(request) {
    const { timeRange = ANALYTICS.defaultRange } = request.query
    const body = await request.server.services.analytics.post(requireAuth(request).user, request.params.id, timeRange)
    return { status: 200, body }
  },

  async getEngagementAnalytics(request) {
    const { timeRange = ANALYTICS.defaultRange } = request.query
    const body = await request.server.services.analytics.engagement(requireAuth(request).user, timeRange)
    return { status: 200, body }
  },

  async getTrendAnalytics(request) {
    const { timeRange = ANALYTICS.defaultRange } = request.query
    const body = await request.server.services.analytics.trends(requireAuth(request).user, timeRange)
    return { status: 200, body }
  },
} satisfies Handlers
