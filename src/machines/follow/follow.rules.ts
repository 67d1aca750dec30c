// Who may follow whom (docs/product.md, "Follows"), for the actors that spawn a Follow/Unfollow button (profile, follow lists).

/** Nobody follows themselves: the member's own profile and own row in a list get no Follow button. */
export function canFollow(memberId: string, viewerId: string): boolean {
  return memberId !== viewerId
}
