// Email verification's words and rules, for both sides: the server answers with these messages, the browser shows
// them and masks addresses the same way the mails do.

/** A mailed link works this long (docs/product.md, "Email"). */
export const EMAIL_LINK_HOURS = 24

/** Unknown, used, replaced or expired link: one answer for all, so a token cannot be probed. */
export const EMAIL_LINK_INVALID = 'This link has expired or was already used'
/** With REQUIRE_VERIFIED_EMAIL on, an unconfirmed member's post or reply (403). */
export const CONFIRM_EMAIL_TO_POST = 'Confirm your email address before posting'
export const EMAIL_ALREADY_CONFIRMED = 'Your email address is already confirmed'
export const EMAIL_UNCHANGED = 'That is already your email address'

/** "ann@example.org" -> "a***@example.org": enough for the owner to recognise, little for anyone else. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@')
  if (at < 1) return '***'
  return `${address[0]}***${address.slice(at)}`
}
