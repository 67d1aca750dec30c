import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'

export const trendHandlers = {
  async getTrending(request) {
    requireAuth(request)
    return { status: 200, body: { trends: await request.server.services.trends.trending() } }
  },
} satisfies Handlers
