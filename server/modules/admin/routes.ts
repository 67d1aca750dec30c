import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import { pageRequest } from '../../lib/cursor'

// The admin panel's calls (docs/product.md, "Admin panel"); the service checks the role on every one.
export const adminHandlers = {
  async fixAllStats(request) {
    const body = await request.server.services.admin.fixAllStats(requireAuth(request).user)
    return { status: 200, body }
  },

  async recalculateUserStats(request) {
    const body = await request.server.services.admin.recalculateUserStats(requireAuth(request).user, request.params.id)
    return { status: 200, body }
  },

  async promoteUser(request) {
    const body = await request.server.services.admin.promote(requireAuth(request).user, request.params.username)
    return { status: 200, body }
  },

  async demoteUser(request) {
    const body = await request.server.services.admin.demote(requireAuth(request).user, request.params.username)
    return { status: 200, body }
  },

  async getAuditLog(request) {
    const body = await request.server.services.admin.auditLog(requireAuth(request).user, pageRequest(request.query))
    return { status: 200, body }
  },
} satisfies Handlers
