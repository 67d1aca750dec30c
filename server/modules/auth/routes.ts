import type { FastifyRequest } from 'fastify'
import { requireAuth } from '../../http/authenticate'
import type { Handlers } from '../../http/handler-types'
import { addressKey } from '../../http/rate-limit'
import { toCurrentUser } from './current-user'
import type { SignedIn } from './service'

const tryAgain = (what: string) => (seconds: number) => `Too many ${what}. Try again in ${seconds} seconds.`
const loginMessage = tryAgain('login attempts')
const registerMessage = tryAgain('registrations from this address')
const changePasswordMessage = tryAgain('password change attempts')

// The wrapped private key goes back exactly as the browser stored it: it unwraps it with the password just typed.
const signedIn = ({ user, token }: SignedIn) => ({
  user: toCurrentUser(user),
  token,
  privateKey: user.wrappedPrivateKey,
})
const userAgent = (request: FastifyRequest) => request.headers['user-agent']

export const authHandlers = {
  async register(request) {
    const { rateLimits, config, accounts } = request.server.services
    rateLimits.hit(`register:ip:${addressKey(request.ip)}`, config.registerLimitPerIp, registerMessage)
    const result = await accounts.register(request.body, userAgent(request))
    return { status: 201, body: signedIn(result) }
  },

  async login(request) {
    const { rateLimits, config, accounts } = request.server.services
    const ipKey = `login:ip:${addressKey(request.ip)}`
    const accountKey = `login:account:${request.body.username.trim().toLowerCase()}`
    rateLimits.hit(ipKey, config.loginLimitPerIp, loginMessage)
    rateLimits.hit(accountKey, config.loginLimitPerAccount, loginMessage)
    const result = await accounts.login(request.body.username, request.body.password, userAgent(request))
    // Only failures count: a member signing in on many devices never locks themselves out.
    rateLimits.refund(ipKey)
    rateLimits.refund(accountKey)
    return { status: 200, body: signedIn(result) }
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

  async changePassword(request) {
    const { rateLimits, config, accounts } = request.server.services
    const auth = requireAuth(request)
    // Guessing the current password with a stolen token is still password guessing: same per-account budget.
    const key = `change-password:${auth.user.id}`
    rateLimits.hit(key, config.loginLimitPerAccount, changePasswordMessage)
    const { currentPassword, newPassword, privateKey } = request.body
    await accounts.changePassword(auth, currentPassword, newPassword, privateKey)
    rateLimits.refund(key)
    return { status: 200, body: { message: 'Password changed successfully' } }
  },
} satisfies Handlers
