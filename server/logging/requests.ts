import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import { requestLineLevel } from './logger-options'
import { REQUEST_ID_HEADER } from './request-ids'
import { runInRequest } from './request-context'

/** Requests no route matched (the web app's pages, unknown paths) in logs and metrics: never the raw path. */
export const UNMATCHED_ROUTE = '(unmatched)'

export const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? UNMATCHED_ROUTE

/** Query parameters whose values are secrets: a mailed reset or confirmation link carries its token in `?token=`. */
const SECRET_PARAMS = /token|secret|code|password|key/i

/** The URL as a log may hold it: the values of secret-looking query parameters replaced by `[hidden]`. */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?')
  if (at < 0) return url
  const query = new URLSearchParams(url.slice(at + 1))
  let hidden = false
  for (const name of new Set(query.keys())) {
    if (!SECRET_PARAMS.test(name)) continue
    query.set(name, '[hidden]')
    hidden = true
  }
  return hidden ? `${url.slice(0, at)}?${query.toString().replaceAll('%5Bhidden%5D', '[hidden]')}` : url
}

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
    const url = loggableUrl(request.url)
    const line = `${request.method} ${url} ${status} ${Math.round(durationMs)} ms`
    request.log[level](
      {
        request: {
          method: request.method,
          url,
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
