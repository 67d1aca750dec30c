// What the signed-in member may do as far as the session knows (docs/product.md, "App shell"), for the session's selectors.

/** Admins see the Admin entry in the navigation and the Admin Panel; everyone else reads 'Access Denied' there. */
export function isAdmin(user: { isAdmin?: boolean } | null): boolean {
  return user?.isAdmin === true
}
