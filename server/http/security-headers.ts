import type { FastifyInstance } from 'fastify'

/**
 * The Content-Security-Policy of the app (docs/security.md, "In the browser"). The member's message key lives in this
 * origin (a non-extractable CryptoKey in IndexedDB, usable by any script the page runs), so injected script must not
 * run: scripts only from this origin and never inline (the theme's pre-paint script is public/theme-prepaint.js), no
 * plugins, no <base> rewriting, no framing. Styles: Panda CSS is extracted at build time into one stylesheet, and
 * React sets `style` props through the CSSOM, which CSP does not govern, so 'self' suffices. connect-src: the API
 * and the socket (socket.io over ws/wss on this host). Images: this origin, data: (the favicon) and blob: (previews
 * of a file about to be uploaded). The Vite dev server does not send it.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self'",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * Headers every response carries, API and web app alike: the CSP, no MIME sniffing (a JSON answer is never run as
 * script), no framing (clickjacking), no full URLs leaking to other sites in Referer.
 */
const headers = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
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
