// The follow-requests screen's texts and the pending count (docs/product.md, "Private accounts and follow requests"),
// shared by the machine, its selectors, the views and the tests.

export const REQUEST_APPROVED = 'Follow request approved'
export const REQUEST_DECLINED = 'Follow request declined'
/** Said when the server refuses without a message of its own (a refused approve or decline is never silent here). */
export const APPROVE_FAILED = 'Failed to approve request'
export const DECLINE_FAILED = 'Failed to decline request'
export const NO_REQUESTS = 'No pending follow requests'

/**
 * The count next to the Notifications entry: the server gives pages, not a total, so with a next page waiting it
 * says how many are loaded and "+" ("20+"); null when there is nothing to count.
 */
export function pendingCountLabel(loaded: number, hasMore: boolean): string | null {
  if (loaded === 0 && !hasMore) return null
  return hasMore ? `${loaded}+` : String(loaded)
}
