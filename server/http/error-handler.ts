import type { FastifyError, FastifyInstance } from 'fastify'
import { DomainError, type DomainErrorKind, TooMany } from '../lib/domain-errors'
import { HttpError } from './errors'

/** The one place domain errors (server/lib/domain-errors.ts) become HTTP: each kind's status code. */
export const domainErrorStatus: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  unprocessable: 422,
  'too-many': 429,
}

const errorBody = (message: string, details: string[] | undefined) =>
  details ? { error: message, details } : { error: message }

/** Fastify's own 4xx errors, reworded for people (its texts name internals such as "FST_ERR_CTP_..."). */
const frameworkMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty but Content-Type says JSON',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
}

/** Errors Fastify and its plugins raise for a bad request carry a 4xx `statusCode` (and usually a `code`). */
function isClientError(err: unknown): err is Partial<FastifyError> & Error & { statusCode: number } {
  const status = (err as { statusCode?: unknown } | undefined)?.statusCode
  return err instanceof Error && typeof status === 'number' && status >= 400 && status < 500
}

/**
 * drizzle wraps driver errors as `Failed query: <sql>\nparams: <values>`: the values are what members sent (a
 * message's ciphertext, a wrapped key). Logged without them: the statement and the driver's own error say what went
 * wrong, and nothing a member wrote reaches the log (docs/security.md).
 */
function loggable(err: unknown): { err: unknown; query?: string } {
  const failed = err as { query?: unknown; params?: unknown; cause?: unknown }
  if (!(err instanceof Error) || typeof failed.query !== 'string' || !('params' in failed)) return { err }
  // The driver's error alone: its `detail` ("Failing row contains (...)") would repeat the row's values.
  const cause = failed.cause as { message?: string; code?: string; constraint?: string; stack?: string } | undefined
  return {
    err: { message: cause?.message ?? 'Database query failed', code: cause?.code, constraint: cause?.constraint, stack: cause?.stack },
    query: failed.query,
  }
}

/**
 * One error body for everything: `{ error, details? }`. 4xx say what to fix; 5xx say nothing (no stack, no SQL) and
 * are logged with the request id instead.
 */
export function handleErrors(app: FastifyInstance): void {
  app.setErrorHandler(async (err: unknown, request, reply) => {
    // A rule a service enforced: the member learns which.
    if (err instanceof TooMany) {
      return reply.code(429).header('retry-after', String(err.retryAfterSeconds)).send(errorBody(err.message, undefined))
    }
    if (err instanceof DomainError) {
      return reply.code(domainErrorStatus[err.kind]).send(errorBody(err.message, err.details))
    }
    // Deliberate answers (including 503): whoever threw them logged what needed logging.
    if (err instanceof HttpError) {
      return reply.code(err.statusCode).headers(err.headers).send(errorBody(err.message, err.details))
    }
    if (isClientError(err)) {
      return reply.code(err.statusCode).send({ error: frameworkMessages[err.code ?? ''] ?? err.message })
    }
    request.log.error(loggable(err), 'unhandled error')
    return reply.code(500).send({ error: 'Internal server error' })
  })
}
