/**
 * The Idempotency-Key refusals (openapi.yaml, components/parameters/IdempotencyKey), shared by the server that says
 * them and the SPA that must tell "your first try is still running" (409) from the other 409s, which are refusals.
 */
export const IDEMPOTENCY_KEY_REUSED = 'This Idempotency-Key was already used for a different request'
export const IDEMPOTENCY_KEY_IN_PROGRESS = 'A request with this Idempotency-Key is still in progress'
