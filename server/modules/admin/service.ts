import type { Database } from '../../db/client'
import { findRoleByUsername, setAdmin } from './queries'

export type RoleChange =
  | { outcome: 'changed' | 'unchanged'; username: string; isAdmin: boolean }
  | { outcome: 'unknown-user' }

/**
 * Grants or removes the admin role by username (case-insensitive). Used by `npm run admin`, which is also how an
 * instance recovers when its only admin is gone; the HTTP promote/demote operations will share it.
 */
export async function changeAdminRole(db: Database, username: string, isAdmin: boolean): Promise<RoleChange> {
  const user = await findRoleByUsername(db, username)
  if (!user) return { outcome: 'unknown-user' }
  if (user.isAdmin === isAdmin) return { outcome: 'unchanged', username: user.username, isAdmin }
  await setAdmin(db, user.id, isAdmin)
  return { outcome: 'changed', username: user.username, isAdmin }
}
