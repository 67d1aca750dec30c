import type { Handlers } from '../http/handler-types'
import { authHandlers } from './auth/routes'
import { healthHandlers } from './health/routes'

/**
 * Every module's handlers by area. Each operationId must appear once across them (the router refuses duplicates;
 * tests/api/contract.test.ts checks this list against openapi.yaml and server/http/not-implemented.ts).
 */
export const moduleHandlers: Record<string, Handlers> = {
  health: healthHandlers,
  auth: authHandlers,
}
