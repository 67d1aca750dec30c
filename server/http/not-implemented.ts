import type { OperationId } from './handler-types'

/**
 * Operations openapi.yaml designs but the server does not build yet: the router answers each of them
 * 501 `{ error }` (components/responses/NotImplemented) so the SPA can be written against the whole contract now.
 *
 * Later issues move ids out of this list as they implement them (add the handler to its module in
 * server/modules/index.ts and delete the id here, in the same change). tests/api/contract.test.ts compares the
 * yaml's operations with the registered handlers plus this list: every operation must be in exactly one of the
 * two, and every id here must exist in the yaml. `satisfies` makes a misspelt id a compile error too.
 */
export const notImplemented: readonly string[] = [] satisfies readonly OperationId[]
