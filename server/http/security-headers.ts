import type { FastifyInstance, onSendHookHandler } from 'fastify'

/**
 * The Content-Security-Policy of the app (docs/security.md, "In the browser"). The member's message key lives in this
 * origin (a non-extractable CryptoKey in IndexedDB, usable by any script the page runs), so injected script must not
 * run: scripts only from this origin and never inline (the theme's pre-paint script is public/theme-prepaint.js), no
 * eval; 'wasm-unsafe-eval' lets WebAssembly compile (argon2id of the password, src/crypto/kdf.ts, runs in hash-wasm)
 * without allowing eval or new Function to JavaScript; no plugins, no <base> rewriting, no framing. Styles: Panda CSS is extracted at build time into one stylesheet, and
 * React sets `style` props through the CSSOM, which CSP does not govern, so 'self' suffices. connect-src: the API
 * and the socket, both on this origin only ('self' also matches ws:/wss: to this host under CSP Level 3), so an
 * injected script cannot hand what it reads to another host by fetch, XHR or websocket. Images: this origin, data:
 * (the favicon) and blob: (previews of a file about to be uploaded). The Vite dev server does not send it.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * The policy of uploaded media (/media/*, server/http/media.ts) instead of the app's. A file is never a page of the
 * app: should a browser ever render one as a document (a polyglot, an old browser's sniffing), nothing in it may
 * run, load or reach anything (`default-src 'none'`, and `sandbox` without `allow-scripts`: no script, form, popup
 * or plugin at all). `media-src 'self'` lets a browser play a video whose URL is opened directly (it builds a player
 * page around the file and loads the file into it); an image needs nothing, it is the page itself. The sandbox keeps
 * the file's own origin (`allow-same-origin`) only because Chromium refuses to load the video into that player from
 * an opaque origin; with no script able to run, the origin gives nothing to use.
 */
export const MEDIA_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "media-src 'self'",
  "frame-ancestors 'none'",
  'sandbox allow-same-origin',
].join('; ')

/**
 * Headers every response carries, API and web app alike: the CSP, no MIME sniffing (a JSON answer is never run as
 * script), no framing (clickjacking), no full URLs leaking to other sites in Referer. Media replace the CSP with
 * their own (`useMediaPolicy`).
 */
const headers = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const

/**
 * HSTS: a browser that once reached us over https keeps to https for a year, subdomains included, so a network
 * attacker cannot downgrade a later visit to plain http (the app needs a secure context for its keys anyway). Sent
 * only on answers that really went over TLS: Fastify's `request.protocol` believes X-Forwarded-Proto only from a
 * proxy TRUST_PROXY trusts, so a client cannot claim https, and a plain http answer never carries it (browsers
 * ignore it there, and an operator testing over http must not be locked out of their own host).
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains'

export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(headers)
    if (request.protocol === 'https') reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY)
    return payload
  })
}

/**
 * Gives every response of `scope` (an encapsulated plugin) the media policy. Its onSend hook runs after the one
 * `addSecurityHeaders` put on the root, so it has the last word on every answer of the scope: files, 206, 304, 404.
 */
export function useMediaPolicy(scope: FastifyInstance): void {
  scope.addHook('onSend', mediaPolicy)
}

/** The onSend hook of `useMediaPolicy`, also put on API operations that answer files (server/http/api-routes.ts). */
export const mediaPolicy: onSendHookHandler = async (_request, reply, payload) => {
  reply.header('content-security-policy', MEDIA_CONTENT_SECURITY_POLICY)
  return payload
}
