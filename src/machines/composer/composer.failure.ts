import { isApiError } from '../../api/errors'
import { MESSAGES } from './composer.rules'

/**
 * The failure toast (docs/product.md, "Writing a post"), in its order: the server's `error` field; else its `details`
 * joined by ', '; else (the server's `message`: our contract's error body has none) the client's own message for what
 * went wrong (offline, timed out, refused); else 'An error occurred while creating the post'.
 */
export function postFailureMessage(error: unknown): string {
  if (isApiError(error)) {
    if ('fromServer' in error && error.fromServer) return error.message
    if (error._tag === 'Invalid' && error.details.length > 0) return error.details.join(', ')
    if (error.message.trim() !== '') return error.message
  } else if (error instanceof Error && error.message.trim() !== '') {
    return error.message
  }
  return MESSAGES.failed
}
