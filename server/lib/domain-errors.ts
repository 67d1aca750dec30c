/**
 * What services, queries and lib code throw when a request cannot be done: the rule that was broken, in words a
 * member can act on, and nothing about HTTP. The error handler (server/http/error-handler.ts) maps each kind to its
 * status code and the contract's `{ error, details? }` body in one table; routes and the HTTP layer itself still
 * throw `HttpError` (server/http/errors.ts) for what only HTTP knows (uploads, 503).
 */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'unprocessable'
  | 'too-many'

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind

  constructor(
    message: string,
    /** Every problem found, when there are several (the first is usually `message`). */
    readonly details?: string[],
  ) {
    super(message)
    this.name = new.target.name
  }
}

/** The input breaks a rule (400): too long, blank, a cursor that does not decode, an image that cannot be read. */
export class Invalid extends DomainError {
  readonly kind = 'invalid'
}

/** Who the caller claims to be does not hold (401): wrong username or password. */
export class Unauthenticated extends DomainError {
  readonly kind = 'unauthenticated'

  constructor(message = 'Authentication required') {
    super(message)
  }
}

/** The caller may see the thing but not do this to it (403). */
export class Forbidden extends DomainError {
  readonly kind = 'forbidden'

  constructor(message = 'You are not allowed to do this') {
    super(message)
  }
}

/** No such thing, or none the caller may see (404): hidden and missing look the same. */
export class NotFound extends DomainError {
  readonly kind = 'not-found'

  constructor(message = 'Not found') {
    super(message)
  }
}

/** The request clashes with what exists (409): a username or email already taken. */
export class Conflict extends DomainError {
  readonly kind = 'conflict'
}

/**
 * The request is well formed but cannot be taken as it stands (422): an Idempotency-Key already used for a different
 * request.
 */
export class Unprocessable extends DomainError {
  readonly kind = 'unprocessable'
}

/**
 * The member did this too often (429): a rate limit (server/lib/rate-limiter.ts). The message says how long to wait;
 * `retryAfterSeconds` is the same wait for machines.
 */
export class TooMany extends DomainError {
  readonly kind = 'too-many'

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message)
  }
}
