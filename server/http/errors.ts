/**
 * What the HTTP layer and routes throw for what only HTTP knows: a malformed upload, a missing or ended session,
 * 503. The error handler (server/http/error-handler.ts) turns it into the contract's
 * `{ error, details? }` body. Services throw domain errors instead (server/lib/domain-errors.ts), mapped in the same
 * handler; anything else that escapes a handler is a 500 with no detail.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

export const badRequest = (message: string, details?: string[]) => new HttpError(400, message, details)
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message)
