import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import { requestLineLevel } from './logger-options'
import { REQUEST_ID_HEADER } from './request-ids'
import { runInRequest } from './request-context'

/** Requests no route matched (the web app's pages, unknown paths) in logs and metrics: never the raw path. */
export const UNMATCHED_ROUTE = '(unmatched)'

export const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? UNMATCHED_ROUTE

/**
 * Fastify's request logging without its two lines per request ("incoming request", "request completed"): the one
 * line of `logRequests` replaces them. Its other lines (a response stream that failed, a header write that did) stay.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply)
  }
}

/**
 * Per request: the id in the `X-Request-Id` answer header, the request's context for every log line written while it
 * is handled, and one line when it is answered (method, url, route, status, duration, client address): `info`, `warn`
 * past SLOW_REQUEST_MS, `debug` for health checks.
 */
export function logRequests(app: FastifyInstance, options: { slowRequestMs: number }): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    // Everything after this hook runs inside: Fastify (5.12) carries the context across reading a body too.
    runInRequest(request.id, done)
  })
  app.addHook('onResponse', (request, reply, done) => {
    const durationMs = reply.elapsedTime
    const route = routeOf(request)
    const status = reply.statusCode
    const level = requestLineLevel(route, durationMs, options.slowRequestMs)
    const line = `${request.method} ${request.url} ${status} ${Math.round(durationMs)} ms`
    request.log[level](
      {
        request: {
          method: request.method,
          url: request.url,
          route,
          status,
          durationMs: Math.round(durationMs * 10) / 10,
          remoteAddress: request.ip,
        },
      },
      level === 'warn' ? `slow request: ${line}` : line,
    )
    done()
  })
}
