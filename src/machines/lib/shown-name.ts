/** Anyone the app names: a member, an author, a list member, the other side of a conversation. */
export interface Named {
  readonly displayName?: string | null
  readonly username: string
}

/**
 * The name the app shows for a member: the display name as the member typed it (trimmed), else the username. The
 * server requires a display name, so the username only shows for accounts that predate that rule or rows built before
 * the profile arrived; it is the plain username (not "@username"), because most screens print "@username" beside the
 * name already. Nobody at all (a member not loaded yet) shows as "".
 */
export function shownName(who: Named | null | undefined): string {
  if (!who) return ''
  return who.displayName?.trim() || who.username
}
