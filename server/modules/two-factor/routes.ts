import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import { addressKey } from '../../http/rate-limit'
import { toCurrentUser } from '../auth/current-user'

// Two-factor sign-in's calls (openapi.yaml, /auth/two-factor/*, /auth/login/second-factor and the admin's reset).
// Only setupTwoFactor answers the secret.
export const twoFactorHandlers = {
  async loginSecondFactor(request) {
    const { ticket, code } = request.body
    const { user, token } = await request.server.services.twoFactor.completeSignIn(ticket, code, addressKey(request.ip))
    return { status: 200, body: { user: toCurrentUser(user), token, privateKey: user.wrappedPrivateKey } }
  },

  async setupTwoFactor(request) {
    const body = await request.server.services.twoFactor.setup(requireAuth(request))
    return { status: 200, body }
  },

  async enableTwoFactor(request) {
    const { user, recoveryCodes } = await request.server.services.twoFactor.enable(requireAuth(request), request.body)
    return { status: 200, body: { user: toCurrentUser(user), recoveryCodes } }
  },

  async disableTwoFactor(request) {
    const user = await request.server.services.twoFactor.disable(requireAuth(request), request.body)
    return { status: 200, body: { user: toCurrentUser(user) } }
  },

  async regenerateRecoveryCodes(request) {
    const recoveryCodes = await request.server.services.twoFactor.regenerateRecoveryCodes(requireAuth(request), request.body)
    return { status: 200, body: { recoveryCodes } }
  },

  async resetTwoFactor(request) {
    const user = await request.server.services.twoFactor.resetByAdmin(requireAuth(request).user, request.params.id)
    return { status: 200, body: { user } }
  },
} satisfies Handlers
