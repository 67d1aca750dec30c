import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import { pageRequest } from '../../lib/cursor'

// Reports (docs/product.md, "Reports"): filing them, listing them, reviewing them.
export const reportHandlers = {
  async reportUser(request) {
    const { userId, ...filing } = request.body
    const report = await request.server.services.reports.reportUser(requireAuth(request).user, userId, filing)
    return { status: 201, body: { report } }
  },

  async reportPost(request) {
    const { postId, ...filing } = request.body
    const report = await request.server.services.reports.reportPost(requireAuth(request).user, postId, filing)
    return { status: 201, body: { report } }
  },

  async reportMessage(request) {
    const { messageId, ...filing } = request.body
    const report = await request.server.services.reports.reportMessage(requireAuth(request).user, messageId, filing)
    return { status: 201, body: { report } }
  },

  async getReports(request) {
    const { status, ...page } = request.query
    const body = await request.server.services.reports.list(requireAuth(request).user, status, pageRequest(page))
    return { status: 200, body }
  },

  async updateReport(request) {
    const report = await request.server.services.reports.review(requireAuth(request).user, request.params.id, request.body)
    return { status: 200, body: { report } }
  },
} satisfies Handlers
