import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import { pageRequest } from '../../lib/cursor'

export const hashtagHandlers = {
  async searchHashtags(request) {
    requireAuth(request)
    const { q, ...paging } = request.query
    return { status: 200, body: await request.server.services.hashtags.search(q, pageRequest(paging)) }
  },

  async getTrending(request) {
    requireAuth(request)
    return { status: 200, body: { trends: await request.server.services.hashtags.trending() } }
  },
} satisfies Handlers
