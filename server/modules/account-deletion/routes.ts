import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'

export const accountDeletionHandlers = {
  async deleteAccount(request) {
    await request.server.services.accountDeletion.request(requireAuth(request), request.body)
    return { status: 202, body: { message: 'Your account is being deleted' } }
  },
} satisfies Handlers
