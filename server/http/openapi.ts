import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

/** openapi.yaml at the repository root: the contract routes, validation and serialization all come from. */
export const specificationPath = fileURLToPath(new URL('../../openapi.yaml', import.meta.url))

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const
/** The one parameter component an idempotent write declares. */
export const IDEMPOTENCY_KEY_PARAMETER = '#/components/parameters/IdempotencyKey'

export type HttpMethod = Uppercase<(typeof methods)[number]>

/**
 * What an operation's `security` asks of the caller:
 * - `required`: a valid bearer token (the document default, `security: [bearer: []]`);
 * - `optional`: `security: [{}, { bearer: [] }]`, a token is used when sent but not needed;
 * - `none`: `security: []`.
 */
export type AuthRequirement = 'required' | 'optional' | 'none'

export interface OperationInfo {
  operationId: string
  method: HttpMethod
  /** The path as written in the yaml, e.g. `/users/{username}`. */
  path: string
  auth: AuthRequirement
  /** `requestBody.required: true`: Fastify validates a body only when one is sent, so the router checks presence. */
  bodyRequired: boolean
  /** A response of `application/octet-stream` (a file, such as an encrypted attachment). */
  servesFiles: boolean
  /** Declares the `Idempotency-Key` header (server/http/idempotency.ts): a retried write answers its first result. */
  idempotent: boolean
}

export interface OpenApiDocument {
  security?: SecurityRequirement[]
  paths?: Record<string, Record<string, unknown>>
  [key: string]: unknown
}
type SecurityRequirement = Record<string, string[]>

interface OperationObject {
  operationId?: string
  security?: SecurityRequirement[]
  requestBody?: { required?: boolean }
  parameters?: Array<{ $ref?: string } | undefined>
  responses?: Record<string, { content?: Record<string, unknown> } | undefined>
}

const parsed = new Map<string, OpenApiDocument>()

/**
 * The document, parsed once per process and file (a test process builds hundreds of apps from it); each caller gets
 * its own copy, free to change.
 */
export function loadSpecification(file: string = specificationPath): OpenApiDocument {
  let document = parsed.get(file)
  if (!document) {
    document = parse(readFileSync(file, 'utf8')) as OpenApiDocument
    parsed.set(file, document)
  }
  return structuredClone(document)
}

function authRequirement(security: SecurityRequirement[]): AuthRequirement {
  if (security.length === 0) return 'none'
  return security.some((requirement) => Object.keys(requirement).length === 0) ? 'optional' : 'required'
}

/** Every operation the document declares, in document order. */
export function listOperations(spec: OpenApiDocument): OperationInfo[] {
  const operations: OperationInfo[] = []
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const method of methods) {
      const operation = item[method] as OperationObject | undefined
      if (!operation) continue
      if (!operation.operationId) throw new Error(`openapi.yaml: ${method.toUpperCase()} ${path} has no operationId`)
      operations.push({
        operationId: operation.operationId,
        method: method.toUpperCase() as HttpMethod,
        path,
        auth: authRequirement(operation.security ?? spec.security ?? []),
        bodyRequired: operation.requestBody?.required === true,
        servesFiles: Object.values(operation.responses ?? {}).some(
          (response) => response?.content?.['application/octet-stream'] !== undefined,
        ),
        idempotent: (operation.parameters ?? []).some((parameter) => parameter?.$ref === IDEMPOTENCY_KEY_PARAMETER),
      })
    }
  }
  return operations
}
