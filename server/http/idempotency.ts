import { createHash, type Hash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import type { FastifyRequest } from 'fastify'
import { requireAuth } from './authenticate'
import type { AnyHandler } from './handler-types'
import { uploadedFiles } from './uploads'

/**
 * The `Idempotency-Key` request header (openapi.yaml, components/parameters/IdempotencyKey) on the operations that
 * declare it: the route's handler runs through the idempotency service (server/modules/idempotency), keyed by the
 * member and the key, and fingerprinted by what the request sends. Without the header nothing changes.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key'

/**
 * The key as sent. The IETF draft writes it as a structured-field string (`"abc"`), Stripe and most clients bare
 * (`abc`): both name the same key. The yaml has already bounded it (1-255 visible ASCII characters).
 */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_HEADER]
  if (typeof value !== 'string') return undefined
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value
}

/** JSON with object keys sorted at every depth, so the same request always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

async function hashFile(hash: Hash, file: string): Promise<void> {
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
}

/**
 * SHA-256 of the operation, its path parameters and body, and for a multipart form each uploaded file's bytes: the
 * request is compared, never stored (a message's ciphertext, a photo).
 */
export async function fingerprint(operation: string, request: FastifyRequest): Promise<string> {
  const hash = createHash('sha256')
  hash.update(canonical({ operation, params: request.params ?? {}, body: request.body ?? null }))
  for (const file of uploadedFiles(request)) {
    hash.update(`\u0000file ${file.index} ${file.size}\u0000`)
    await hashFile(hash, file.path)
  }
  return hash.digest('hex')
}

/** The handler of an operation that declares the header: with a key, the write runs once per member and key. */
export function idempotent(operation: string, handler: AnyHandler): AnyHandler {
  return async (request, reply) => {
    const key = idempotencyKeyOf(request)
    if (key === undefined) return handler(request, reply)
    const userId = requireAuth(request).user.id
    return request.server.services.idempotency.run(
      { userId, key, operation, fingerprint: await fingerprint(operation, request) },
      () => handler(request, reply),
    )
  }
}
