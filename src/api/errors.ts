import { Data } from 'effect'

// Every failed call ends as exactly one of these, so callers switch on `_tag` instead of reading status codes.
// Each carries a human-readable `message`; HTTP errors also say whether that message is the server's own `error` field
// (`fromServer`), because mutation failures show the server's words, else a fixed default (docs/product.md, "Toasts").

/** Fields every HTTP-status error carries. */
interface HttpFields {
  readonly message: string
  readonly fromServer: boolean
}

/** 401: missing, unknown or revoked token, or wrong credentials on login. */
export class Unauthorized extends Data.TaggedError('Unauthorized')<HttpFields> {}

/** 403: signed in but not allowed. */
export class Forbidden extends Data.TaggedError('Forbidden')<HttpFields> {}

/** 404: no such resource, or not visible to the viewer. */
export class NotFound extends Data.TaggedError('NotFound')<HttpFields> {}

/** Any other 4xx (400, 409, 429...): the request broke a rule; `details` lists each problem when the server gave them. */
export class Invalid extends Data.TaggedError('Invalid')<
  HttpFields & { readonly status: number; readonly details: ReadonlyArray<string> }
> {}

/** 5xx: the server or one of its dependencies failed. */
export class Server extends Data.TaggedError('Server')<HttpFields & { readonly status: number }> {}

/** The request never got an answer (offline, DNS, connection refused, CORS). */
export class Network extends Data.TaggedError('Network')<{ readonly message: string }> {}

/** The call ran out of its time budget and was aborted. */
export class Timeout extends Data.TaggedError('Timeout')<{ readonly message: string }> {}

export type ApiError = Unauthorized | Forbidden | NotFound | Invalid | Server | Network | Timeout

export type ApiErrorTag = ApiError['_tag']

const tags: ReadonlySet<string> = new Set<ApiErrorTag>([
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'Invalid',
  'Server',
  'Network',
  'Timeout',
])

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && '_tag' in value && tags.has(String(value._tag))
}

/** The server's error body (openapi.yaml `Error`), read defensively: a proxy may answer with HTML. */
export interface ErrorBody {
  readonly error?: unknown
  readonly details?: unknown
}

function readMessage(body: ErrorBody | undefined, fallback: string): HttpFields {
  return typeof body?.error === 'string' && body.error.trim() !== ''
    ? { message: body.error, fromServer: true }
    : { message: fallback, fromServer: false }
}

function readDetails(body: ErrorBody | undefined): ReadonlyArray<string> {
  return Array.isArray(body?.details) ? body.details.filter((d): d is string => typeof d === 'string') : []
}

/** A 429 without the server's words (a proxy answered): still says what happened. */
export const TOO_OFTEN = 'You are doing that too often. Please wait a while and try again.'

/** Maps an HTTP error status and its body to the typed error. */
export function fromResponse(status: number, body: ErrorBody | undefined): ApiError {
  if (status === 401) return new Unauthorized(readMessage(body, 'Your session has expired. Please log in again.'))
  if (status === 403) return new Forbidden(readMessage(body, 'You are not allowed to do that.'))
  if (status === 404) return new NotFound(readMessage(body, 'Not found.'))
  if (status >= 500) return new Server({ status, ...readMessage(body, 'Something went wrong on our side. Please try again.') })
  if (status === 429) return new Invalid({ status, ...readMessage(body, TOO_OFTEN), details: readDetails(body) })
  return new Invalid({ status, ...readMessage(body, 'The request was refused.'), details: readDetails(body) })
}

/** Maps a thrown fetch failure (never an HTTP status) to the typed error. */
export function fromThrown(cause: unknown): Network | Timeout {
  if (typeof cause === 'object' && cause !== null && 'name' in cause) {
    if (cause.name === 'AbortError' || cause.name === 'TimeoutError') {
      return new Timeout({ message: 'The request timed out. Please try again.' })
    }
  }
  return new Network({ message: 'Unable to reach the server. Check your connection and try again.' })
}

/** Always a sentence a member can read: the server's words, or ours for network trouble and bare statuses. */
export function describeError(error: unknown, fallback: string): string {
  return isApiError(error) && error.message.trim() !== '' ? error.message : fallback
}

/**
 * A rate limit's refusal (429): the server's words, which say how long to wait ("Too many posts. Try again in 12
 * minutes."). Shown even where other refusals are silent, since the member would otherwise click on in vain.
 */
export function limitMessage(error: unknown): string | null {
  return isApiError(error) && error._tag === 'Invalid' && error.status === 429 ? error.message : null
}

/** The server's own `error` text, else the screen's default (docs/product.md, "Toasts"). */
export function serverMessageOr(error: unknown, fallback: string): string {
  return isApiError(error) && 'fromServer' in error && error.fromServer ? error.message : fallback
}
