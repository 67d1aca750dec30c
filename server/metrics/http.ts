import { isIPv4 } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { routeOf } from '../logging/requests'
import type { AppMetrics } from './app-metrics'

export const METRICS_PATH = '/metrics'

/**
 * 127.0.0.0/8 and ::1, IPv4-mapped forms included. Judged on the connection's own address, never X-Forwarded-For:
 * behind a proxy on the same machine every request arrives from loopback, so the proxy must not forward /metrics
 * (docs/operations.md says so), and nothing a client sends can make its request look local.
 */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false
  if (address === '::1') return true
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address
  return isIPv4(v4) && v4.startsWith('127.')
}

/** Counts every answered request by its route pattern (never the raw path: no ids in labels). */
export function observeRequests(app: FastifyInstance, metrics: AppMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request)
    const method = request.method
    const status = reply.statusCode
    metrics.httpRequests.inc({ method, route, status_class: `${Math.floor(status / 100)}xx` })
    metrics.httpDuration.observe({ method, route }, reply.elapsedTime / 1000)
    if (status >= 500) metrics.httpServerErrors.inc({ method, route })
    done()
  })
}

/**
 * GET /metrics, outside /api and the contract: an operator's endpoint, not the members' API. Without metrics (METRICS
 * off) or from a non-loopback address it answers the plain 404 of a path that does not exist, so it cannot be told
 * apart from one. Registered either way, so the web app never answers it with a page.
 */
export function serveMetrics(app: FastifyInstance, metrics: AppMetrics | undefined): void {
  app.get(METRICS_PATH, async (request, reply) => {
    if (!metrics || !isLoopback(request.socket.remoteAddress)) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n')
    }
    const { contentType, body } = await metrics.scrape()
    return reply.header('cache-control', 'no-store').type(contentType).send(body)
  })
}
