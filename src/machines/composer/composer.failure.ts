import { IDEMPOTENCY_KEY_IN_PROGRESS } from '../../api/contract/idempotency'
import { isApiError } from '../../api/errors'
import { MESSAGES } from './composer.rules'

/**
 * The failure toast (docs/product.md, "Writing a post"), in its order: the server's `error` field; else its `details`
 * joined by ', '; else (the server's `message`: our contract's error body has none) the client's own message for what
 * went wrong (offline, timed out, refused); else 'An error occurred while creating the post'. One exception comes
 * first: the answer that the first try of the same post is still running says so in the product's words.
 */
export function postFailureMessage(error: unknown, fallback: string = MESSAGES.failed): string {
  if (isApiError(error)) {
    // The first try of this submission is still running on the server: the post may be about to appear.
    if (error._tag === 'Invalid' && error.status === 409 && error.message === IDEMPOTENCY_KEY_IN_PROGRESS) return MESSAGES.stillSending
    if ('fromServer' in error && error.fromServer) return error.message
    if (error._tag === 'Invalid' && error.details.length > 0) return error.details.join(', ')
    if (error.message.trim() !== '') return error.message
  } else if (error instanceof Error && error.message.trim() !== '') {
    return error.message
  }
  return fallback
}
