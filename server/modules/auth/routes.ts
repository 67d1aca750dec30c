import type { FastifyRequest } from 'fastify'
import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import { addressKey } from '../../http/rate-limit'
import { pageRequest } from '../../lib/cursor'
import { toCurrentUser } from './current-user'
import type { SignedIn } from './service'
import type { SessionStart } from './sessions'

// The wrapped private key goes back exactly as the browser stored it: it unwraps it with the wrapping key it derived
// from the password just typed.
const signedIn = ({ user, token }: SignedIn) => ({
  user: toCurrentUser(user),
  token,
  privateKey: user.wrappedPrivateKey,
})
const sessionStart = (request: FastifyRequest, remember: boolean): SessionStart => ({
  userAgent: request.headers['user-agent'],
  ip: request.ip,
  remember,
})

export const authHandlers = {
  async register(request) {
    const result = await request.server.services.accounts.register(
      request.body,
      // The registration form has no "Remember me": a new member stays signed in.
      sessionStart(request, true),
      addressKey(request.ip),
    )
    return { status: 201, body: signedIn(result) }
  },

  async prelogin(request) {
    const kdf = await request.server.services.accounts.prelogin(request.body.username, addressKey(request.ip))
    return { status: 200, body: { kdf } }
  },

  async login(request) {
    const { username, authSecret, password, remember = false } = request.body
    const result = await request.server.services.accounts.login(
      username,
      { authSecret, password },
      sessionStart(request, remember),
      addressKey(request.ip),
    )
    if ('secondFactor' in result) {
      const { ticket, expiresAt } = result.secondFactor
      return { status: 200, body: { secondFactor: { ticket, expiresAt: expiresAt.toISOString() } } }
    }
    return { status: 200, body: signedIn(result) }
  },

  async upgradeCredentials(request) {
    const user = await request.server.services.accounts.upgrade(requireAuth(request), request.body)
    return { status: 200, body: { user: toCurrentUser(user), privateKey: user.wrappedPrivateKey } }
  },

  async logout(request) {
    await request.server.services.accounts.logout(requireAuth(request))
    return { status: 204 }
  },

  async getMe(request) {
    return { status: 200, body: { user: toCurrentUser(requireAuth(request).user) } }
  },

  async setMessageKeys(request) {
    const user = await request.server.services.accounts.setMessageKeys(requireAuth(request), request.body)
    return { status: 200, body: { user: toCurrentUser(user), privateKey: user.wrappedPrivateKey ?? '' } }
  },

  async listSessions(request) {
    const body = await request.server.services.sessions.list(requireAuth(request), pageRequest(request.query))
    return { status: 200, body }
  },

  async revokeSession(request) {
    await request.server.services.sessions.revokeOwn(requireAuth(request), request.params.id)
    return { status: 204 }
  },

  async revokeOtherSessions(request) {
    const revoked = await request.server.services.sessions.revokeOthers(requireAuth(request))
    return { status: 200, body: { revoked } }
  },

  async changePassword(request) {
    await request.server.services.accounts.changePassword(requireAuth(request), request.body)
    return { status: 200, body: { message: 'Password changed successfully' } }
  },
} satisfies Handlers
