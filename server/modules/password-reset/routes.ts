import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import { addressKey } from '../../http/rate-limit'
import { toCurrentUser } from '../auth/current-user'
import { FORGOT_ACCEPTED, RESET_DONE } from './service'

// Password reset by mail and the message recovery key (openapi.yaml, /auth/password/* and /auth/recovery-key*).
// Reset tokens travel in bodies, never in paths or queries: request lines are logged, bodies are not.
export const passwordResetHandlers = {
  async requestPasswordReset(request) {
    await request.server.services.passwordReset.requestReset(request.body.identifier, addressKey(request.ip))
    return { status: 202, body: { message: FORGOT_ACCEPTED } }
  },

  async checkPasswordReset(request) {
    const body = await request.server.services.passwordReset.inspect(request.body.token, addressKey(request.ip))
    return { status: 200, body }
  },

  async resetPassword(request) {
    await request.server.services.passwordReset.reset(request.body, addressKey(request.ip))
    return { status: 200, body: { message: RESET_DONE } }
  },

  async setRecoveryKey(request) {
    const user = await request.server.services.passwordReset.setRecoveryKey(requireAuth(request), request.body)
    return { status: 200, body: { user: toCurrentUser(user) } }
  },

  async removeRecoveryKey(request) {
    const user = await request.server.services.passwordReset.removeRecoveryKey(requireAuth(request), request.body)
    return { status: 200, body: { user: toCurrentUser(user) } }
  },
} satisfies Handlers
