import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * The request being handled, for code that has no request in hand (a service logging through the app's logger).
 * Entered by the request hooks (server/logging/requests.ts); one for the process, since a store is per request.
 */
const context = new AsyncLocalStorage<string>()

/** Runs `next` (and everything it starts) as part of the request `id`. */
export function runInRequest(id: string, next: () => void): void {
  context.run(id, next)
}

/** The id of the request whose work is running now, if any. */
export function currentRequestId(): string | undefined {
  return context.getStore()
}
