/**
 * Idempotency keys for writes a member may retry (openapi.yaml, components/parameters/IdempotencyKey): one key per
 * submission, made when the member submits and kept by the machine while the same submission is retried, so a retry
 * after a lost answer gets the first result instead of posting twice.
 */

/** The header that carries the key, as the contract's parameter names it. */
export type IdempotencyHeader = { 'Idempotency-Key'?: string }

/** A fresh key: a random UUID. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID()
}

/** The header params of an idempotent call: the key when there is one, nothing otherwise. */
export function idempotencyHeader(key: string | null | undefined): IdempotencyHeader {
  return key ? { 'Idempotency-Key': key } : {}
}
