import type { FastifyInstance } from 'fastify'

/**
 * Headers every response carries, API and web app alike: no MIME sniffing (a JSON answer is never run as script),
 * no framing (clickjacking), no full URLs leaking to other sites in Referer.
 */
const headers = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const

export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(headers)
    return payload
  })
}
