import type { FastifyRequest } from 'fastify'
import type { Authenticated } from '../lib/authenticated'
import { unauthorized } from './errors'
import type { AuthRequirement } from './openapi'

export const AUTH_REQUIRED = 'Authentication required'
export const SESSION_ENDED = 'Session expired or revoked'

function bearerToken(header: string | undefined): string | undefined {
  // Whatever follows "Bearer" is the caller's token, however malformed: they meant to be signed in, so a bad one is
  // "Session expired or revoked" (the client signs out), not "Authentication required".
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '')
  return match?.[1]?.trim() || undefined
}

/**
 * The one bearer check, attached as `onRequest` to every operation whose yaml `security` is not `[]`: it runs before
 * the body is even parsed, so an anonymous caller learns nothing but 401. With `optional` security a missing token
 * is fine, but a bad one is still refused (the client must learn its session ended).
 */
export function authenticate(requirement: Exclude<AuthRequirement, 'none'>) {
  return async function bearerAuth(request: FastifyRequest): Promise<void> {
    const token = bearerToken(request.headers.authorization)
    if (!token) {
      if (requirement === 'required') throw unauthorized(AUTH_REQUIRED)
      return
    }
    const auth = await request.server.services.sessions.resolve(token, request.ip)
    if (!auth) throw unauthorized(SESSION_ENDED)
    request.auth = auth
  }
}

/** For handlers of operations with required security: the hook has already refused anonymous callers. */
export function requireAuth(request: FastifyRequest): Authenticated {
  if (!request.auth) throw unauthorized(AUTH_REQUIRED)
  return request.auth
}
