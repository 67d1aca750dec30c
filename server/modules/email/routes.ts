import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import { toCurrentUser } from '../auth/current-user'

// Email verification's calls (openapi.yaml, /auth/email/*).
export const emailHandlers = {
  async verifyEmail(request) {
    const body = await request.server.services.email.verify(request.body.token)
    return { status: 200, body }
  },

  async resendEmailVerification(request) {
    await request.server.services.email.resend(requireAuth(request))
    return { status: 200, body: { message: 'We sent you a new link' } }
  },

  async changeEmail(request) {
    const user = await request.server.services.email.change(requireAuth(request), request.body)
    return { status: 200, body: { user: toCurrentUser(user) } }
  },
} satisfies Handlers
