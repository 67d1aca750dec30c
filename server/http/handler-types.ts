import type { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { components, operations } from '../../src/api/contract/schema'

/**
 * Handler types derived from the generated contract types (src/api/contract/schema.d.ts, `npm run gen:api`), so a handler
 * that reads a field the yaml does not declare, or answers a status/body the yaml does not list, fails to compile.
 */

export type OperationId = keyof operations
export type Schemas = components['schemas']

type Operation<K extends OperationId> = operations[K]
type Otherwise<T, Fallback> = [T] extends [never] ? Fallback : T
type NoFields = Record<string, never>

type BodyOf<K extends OperationId> =
  Operation<K> extends { requestBody: { content: infer C } } ? C[keyof C] : undefined
type QueryOf<K extends OperationId> = Otherwise<Exclude<Operation<K>['parameters']['query'], undefined>, NoFields>
type ParamsOf<K extends OperationId> = Otherwise<Exclude<Operation<K>['parameters']['path'], undefined>, NoFields>

export type ApiRequest<K extends OperationId> = FastifyRequest<{
  Body: BodyOf<K>
  Querystring: QueryOf<K>
  Params: ParamsOf<K>
}>

type SuccessStatus = 200 | 201 | 202 | 204
type Responses<K extends OperationId> = Operation<K>['responses']

/**
 * What a handler returns: one of the operation's 2xx statuses with exactly that status's JSON body, or the stream of
 * a file the operation declares as `application/octet-stream` (or `application/zip`).
 */
export type ApiResult<K extends OperationId> = {
  [S in keyof Responses<K>]: S extends SuccessStatus
    ? Responses<K>[S] extends { content: { 'application/json': infer B } }
      ? { status: S; body: B }
      : Responses<K>[S] extends { content: { 'application/octet-stream': unknown } } | { content: { 'application/zip': unknown } }
        ? { status: S; body: Readable }
        : { status: S; body?: undefined }
    : never
}[keyof Responses<K>]

/**
 * Errors are thrown, never returned: domain errors from services (server/lib/domain-errors.ts), `HttpError`
 * (server/http/errors.ts) for what only HTTP knows.
 * Declared with method syntax so any `Handler<K>` is also an `AnyHandler` (method parameters are bivariant): the
 * router calls them all through one signature without casts.
 */
export type Handler<K extends OperationId> = {
  handle(request: ApiRequest<K>, reply: FastifyReply): Promise<ApiResult<K>>
}['handle']

export type AnyHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<{ status: number; body?: unknown }>

export type Handlers = { [K in OperationId]?: Handler<K> }
