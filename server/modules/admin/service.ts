import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import { isUuid } from '../../db/ids'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { Conflict, Forbidden, NotFound } from '../../lib/domain-errors'
import {
  auditPage,
  COUNTERS,
  findRoleByUsername,
  fixRows,
  lockAdmins,
  memberCount,
  recordAudit,
  recountMember,
  setAdmin,
  wrongRows,
} from './queries'

// The product's words (docs/product.md, "Admin panel").
export const ADMINS_ONLY = 'Admin privileges required'
export const ADMIN_USER_NOT_FOUND = 'User not found'
export const LAST_ADMIN = 'The last admin cannot be demoted: promote another member first'

/** Rows corrected per short transaction: locks are held for a moment, never for the whole run. */
const FIX_CHUNK = 2_000

export type RoleChange =
  | { outcome: 'changed' | 'unchanged'; username: string; isAdmin: boolean }
  | { outcome: 'unknown-user' }

/**
 * Grants or removes the admin role by username (case-insensitive). Used by `npm run admin`, which is also how an
 * instance recovers when its only admin is gone (so it does not refuse the last admin's demotion).
 */
export async function changeAdminRole(db: Database, username: string, isAdmin: boolean): Promise<RoleChange> {
  const user = await findRoleByUsername(db, username)
  if (!user) return { outcome: 'unknown-user' }
  if (user.isAdmin === isAdmin) return { outcome: 'unchanged', username: user.username, isAdmin }
  await setAdmin(db, user.id, isAdmin)
  return { outcome: 'changed', username: user.username, isAdmin }
}

export interface AdminDeps {
  db: Database
  invalidations: Invalidations
}

/**
 * The admin panel's operations (docs/product.md, "Admin panel"). Every call checks the role here, on the server;
 * every action is written to the audit log in its own transaction.
 */
export class AdminService {
  private readonly db: Database
  private readonly invalidations: Invalidations

  constructor(deps: AdminDeps) {
    this.db = deps.db
    this.invalidations = deps.invalidations
  }

  private static require(viewer: UserRow): void {
    if (!viewer.isAdmin) throw new Forbidden(ADMINS_ONLY)
  }

  /**
   * Every counter, recounted set-based: per counter one statement finds the rows that are wrong, then short
   * transactions lock and correct them (retried once on a deadlock with a member's write).
   */
  async fixAllStats(viewer: UserRow): Promise<Schemas['FixAllStatsResponse']> {
    AdminService.require(viewer)
    const fixedUsers = new Set<string>()
    const fixedPosts = new Set<string>()
    let fixed = 0
    for (const counter of COUNTERS) {
      const wrong = await wrongRows(this.db, counter)
      for (let i = 0; i < wrong.length; i += FIX_CHUNK) {
        const chunk = wrong.slice(i, i + FIX_CHUNK)
        const ids = await fixRows(this.db, counter, chunk).catch(() => fixRows(this.db, counter, chunk))
        fixed += ids.length
        for (const id of ids) (counter.table === 'users' ? fixedUsers : fixedPosts).add(id)
      }
    }
    const recalculated = await memberCount(this.db)
    await this.db.transaction((tx) =>
      recordAudit(
        tx,
        viewer,
        'fix-all-stats',
        `Recounted ${recalculated} members' stats; fixed ${fixed} wrong counters`,
        { recalculated, fixed, users: fixedUsers.size, posts: fixedPosts.size },
      ),
    )
    for (const userId of fixedUsers) await this.invalidations.emit({ kind: 'member-changed', userId })
    const postIds = [...fixedPosts]
    for (let i = 0; i < postIds.length; i += FIX_CHUNK) {
      await this.invalidations.emit({ kind: 'posts-changed', postIds: postIds.slice(i, i + FIX_CHUNK) })
    }
    return { recalculated, fixed }
  }

  async recalculateUserStats(viewer: UserRow, userId: string): Promise<Schemas['RecalculateStatsResponse']> {
    AdminService.require(viewer)
    if (!isUuid(userId)) throw new NotFound(ADMIN_USER_NOT_FOUND)
    const row = await recountMember(this.db, userId)
    if (!row) throw new NotFound(ADMIN_USER_NOT_FOUND)
    await this.db.transaction((tx) =>
      recordAudit(tx, viewer, 'recalculate-stats', `Recalculated the stats of @${row.username}`, { userId }),
    )
    await this.invalidations.emit({ kind: 'member-changed', userId })
    return {
      user: {
        id: row.id,
        username: row.username,
        stats: { followers: row.followers, following: row.following, posts: row.posts },
      },
    }
  }

  async promote(viewer: UserRow, username: string): Promise<Schemas['AdminRoleResponse']> {
    return this.setRole(viewer, username, true)
  }

  async demote(viewer: UserRow, username: string): Promise<Schemas['AdminRoleResponse']> {
    return this.setRole(viewer, username, false)
  }

  /** Idempotent; a demotion locks every admin's row first, so the last admin always stays. Unchanged: no entry. */
  private async setRole(viewer: UserRow, username: string, isAdmin: boolean): Promise<Schemas['AdminRoleResponse']> {
    AdminService.require(viewer)
    const changed = await this.db.transaction(async (tx) => {
      const admins = isAdmin ? 0 : await lockAdmins(tx)
      const user = await findRoleByUsername(tx, username, true)
      if (!user) throw new NotFound(ADMIN_USER_NOT_FOUND)
      if (user.isAdmin === isAdmin) return { user, changed: false }
      if (!isAdmin && admins <= 1) throw new Conflict(LAST_ADMIN)
      await setAdmin(tx, user.id, isAdmin)
      await recordAudit(
        tx,
        viewer,
        isAdmin ? 'promote' : 'demote',
        isAdmin ? `Promoted @${user.username} to admin` : `Demoted @${user.username} from admin`,
        { userId: user.id },
      )
      return { user, changed: true }
    })
    // The member's sessions hold their row: the new role counts from their next request.
    if (changed.changed) await this.invalidations.emit({ kind: 'member-changed', userId: changed.user.id })
    return { user: { username: changed.user.username, isAdmin } }
  }

  /** Written by the migrate-keys call itself (messages), which does the marking. */
  async audit(viewer: UserRow, action: 'migrate-keys', details: string, data: Record<string, unknown>): Promise<void> {
    await this.db.transaction((tx) => recordAudit(tx, viewer, action, details, data))
  }

  async auditLog(viewer: UserRow, page: PageRequest): Promise<Schemas['AuditLogPage']> {
    AdminService.require(viewer)
    const rows = await auditPage(this.db, page.cursor, page.offset, page.limit + 1)
    const { items, nextCursor } = keysetPage(rows, page.limit, (r) => ({
      id: r.id,
      action: r.action,
      actor: r.actor_id === null ? null : { id: r.actor_id, username: r.actor_username },
      details: r.details,
      createdAt: new Date(r.created_at as string | Date).toISOString(),
    }))
    return { entries: items, nextCursor }
  }
}
