import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { Readable } from 'node:stream'
import openapiGlue from 'fastify-openapi-glue'
import { authenticate } from './authenticate'
import { mediaPolicy } from './security-headers'
import { badRequest } from './errors'
import type { AnyHandler, Handlers } from './handler-types'
import { idempotent } from './idempotency'
import { listOperations, type OpenApiDocument, type OperationInfo } from './openapi'
import { type FieldMessages, withSpecMessages } from './validation-messages'

export interface ApiRoutesOptions {
  specification: OpenApiDocument
  /** Handlers by module area (server/modules/index.ts). */
  modules: Record<string, Handlers>
  /** The product's words for body validation failures, by operationId (server/modules/index.ts). */
  messages?: Record<string, FieldMessages>
}

/** Merges the modules' handler maps; an operationId claimed twice is a programming error, refused at start. */
export function mergeHandlers(modules: Record<string, Handlers>): Map<string, AnyHandler> {
  const merged = new Map<string, AnyHandler>()
  const owner = new Map<string, string>()
  for (const [area, handlers] of Object.entries(modules)) {
    for (const [operationId, handler] of Object.entries(handlers) as Array<[string, AnyHandler | undefined]>) {
      if (!handler) continue
      const other = owner.get(operationId)
      if (other) throw new Error(`operationId "${operationId}" is handled by both "${other}" and "${area}"`)
      owner.set(operationId, area)
      merged.set(operationId, handler)
    }
  }
  return merged
}

async function requireBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) throw badRequest('Request body is required')
}

export const NUL_REFUSED = 'Text must not contain the NUL character (U+0000)'

/**
 * Whether any string in a parsed value (keys included) holds U+0000; iterative, so no nesting depth can overflow. A
 * raw body (application/octet-stream, a stream of opaque bytes) holds no text and is not walked.
 */
function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value]
  while (stack.length) {
    const next = stack.pop()
    if (next instanceof Readable) continue
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, inner] of Object.entries(next)) {
        if (key.includes('\u0000')) return true
        stack.push(inner)
      }
    }
  }
  return false
}

/**
 * PostgreSQL text cannot hold U+0000: a query or write with it fails inside the database. No field of the product
 * has a use for it, so any path, query or body text carrying it is refused up front, whatever the operation.
 */
async function refuseNul(request: FastifyRequest): Promise<void> {
  if (holdsNul(request.params) || holdsNul(request.query) || holdsNul(request.body)) throw badRequest(NUL_REFUSED)
}

/** Sends the handler's `{ status, body }`; the route's response schema then serializes (and filters) the body. */
function respondWith(handler: AnyHandler) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = await handler(request, reply)
    return reply.code(status).send(body)
  }
}

/**
 * Registers every operation of openapi.yaml under /api through fastify-openapi-glue, which brings the yaml's request
 * validation and response serialization. Each operation gets its handler plus the bearer check its `security` asks
 * for. An operation without a handler, or a handler without an operation, is a programming error refused at start:
 * the contract never promises a call the server does not answer.
 */
export async function registerApiRoutes(app: FastifyInstance, options: ApiRoutesOptions): Promise<void> {
  const operations = new Map<string, OperationInfo>(
    listOperations(options.specification).map((op) => [op.operationId, op]),
  )
  const handlers = mergeHandlers(options.modules)
  const unhandled = [...operations.keys()].filter((operationId) => !handlers.has(operationId))
  if (unhandled.length > 0) throw new Error(`openapi.yaml operations without a handler: ${unhandled.join(', ')}`)
  const unknown = [...handlers.keys()].filter((operationId) => !operations.has(operationId))
  if (unknown.length > 0) throw new Error(`handlers for operations openapi.yaml lacks: ${unknown.join(', ')}`)

  // fastify-openapi-glue merges what this returns into the route it builds from the yaml (schema included).
  // Method and url are restated (same `{param}` -> `:param` rule as the glue) because its typings want whole
  // RouteOptions.
  const resolveOperation = (operationId: string, method: string, openapiPath: string): RouteOptions => {
    const operation = operations.get(operationId)
    const auth = operation?.auth ?? 'required'
    const handler = handlers.get(operationId)
    if (!handler) throw new Error(`no handler for ${operationId}`)
    const messages = options.messages?.[operationId]
    return {
      ...(messages ? { schemaErrorFormatter: withSpecMessages(messages) } : {}),
      method,
      url: openapiPath.replace(/{(\w+)}/g, ':$1'),
      onRequest: auth === 'none' ? [] : [authenticate(auth)],
      preValidation: operation?.bodyRequired ? [refuseNul, requireBody] : [refuseNul],
      // Operations answering files (encrypted attachments) carry the media policy, not the app's: a file is never a
      // page of the app. Route hooks run after the root's, so this one has the last word.
      ...(operation?.servesFiles ? { onSend: [mediaPolicy] } : {}),
      handler: respondWith(operation?.idempotent ? idempotent(operationId, handler) : handler),
    }
  }

  await app.register(openapiGlue, {
    // The glue dereferences the document in place: give it a copy so callers keep the plain one.
    specification: structuredClone(options.specification),
    prefix: 'api',
    operationResolver: resolveOperation,
  })
}
