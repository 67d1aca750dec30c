import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'

export const trustHandlers = {
  async getKeyHistory(request) {
    const body = await request.server.services.trust.keyHistory(requireAuth(request).user, request.params.id, request.query)
    return { status: 200, body }
  },

  async getTrustRecord(request) {
    const body = await request.server.services.trust.trustRecord(requireAuth(request).user, request.params.id)
    return { status: 200, body }
  },

  async putTrustRecord(request) {
    const body = await request.server.services.trust.storeTrustRecord(requireAuth(request).user, request.params.id, request.body.record)
    return { status: 200, body }
  },
} satisfies Handlers
