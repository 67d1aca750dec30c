import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'

export const pollHandlers = {
  async votePoll(request) {
    const poll = await request.server.services.polls.vote(requireAuth(request).user, request.params.id, request.body.choices)
    return { status: 200, body: { poll } }
  },
} satisfies Handlers
