import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { Invalid, NotFound } from '../../lib/domain-errors'
import { FILTER_LIST_CAP } from '../../lib/filter-terms'
import { FilterLists, type FilterList } from '../filters/service'
import type { NotificationService } from '../notifications/service'
import { findUserById } from '../users/queries'
import { addUserBlock, blockedUserPage, removeUserBlock } from './queries'

// The product's words (docs/product.md, "Blocks"); the keyword and domain rules are shared with mutes.
export const CANNOT_BLOCK_SELF = 'You cannot block yourself'
export const BLOCK_USER_NOT_FOUND = 'User not found'
export const KEYWORD_EXISTS = 'This keyword is already blocked'
export const KEYWORD_NOT_BLOCKED = 'This keyword is not blocked'
export const DOMAIN_EXISTS = 'This domain is already blocked'
export const DOMAIN_NOT_BLOCKED = 'This domain is not blocked'
/** How many keywords, and how many domains, one member may block. */
export const BLOCK_LIST_CAP = FILTER_LIST_CAP
export const tooMany = (what: FilterList) =>
  `You can block at most ${BLOCK_LIST_CAP.toLocaleString('en-US')} ${what}`

/** What BlockService needs, by the names of the services registry (server/services.ts). */
export interface BlockDeps {
  db: Database
  invalidations: Invalidations
  notifications: NotificationService
}

/** Blocking members (a two-way wall), keywords and domains (docs/product.md, "Blocks"). */
export class BlockService {
  private readonly db: Database
  private readonly invalidations: Invalidations
  private readonly notifications: NotificationService
  private readonly filters: FilterLists

  constructor(deps: BlockDeps) {
    this.db = deps.db
    this.invalidations = deps.invalidations
    this.notifications = deps.notifications
    this.filters = new FilterLists(
      deps.db,
      { keywords: 'blocked_keywords', domains: 'blocked_domains', ids: false },
      {
        exists: { keywords: KEYWORD_EXISTS, domains: DOMAIN_EXISTS },
        missing: { keywords: KEYWORD_NOT_BLOCKED, domains: DOMAIN_NOT_BLOCKED },
        tooMany,
      },
      (userId) => this.listChanged(userId),
    )
  }

  async list(viewer: UserRow, page: PageRequest): Promise<Schemas['BlocksResponse']> {
    const [rows, filters] = await Promise.all([
      blockedUserPage(this.db, viewer.id, page.cursor, page.offset, page.limit + 1),
      this.filters.list(viewer.id),
    ])
    const { items: users, nextCursor } = keysetPage(rows, page.limit, (r) => ({
      id: r.id,
      blocked: { id: r.id, username: r.username, displayName: r.display_name, avatar: r.avatar, verified: r.verified },
      createdAt: new Date(r.created_at as string | Date).toISOString(),
    }))
    const values = (rows: ReadonlyArray<{ value: string }>) => rows.map((r) => r.value)
    return { users, keywords: values(filters.keywords), domains: values(filters.domains), nextCursor }
  }

  /** Idempotent: blocking again answers the existing block. Follows both ways go in the same transaction. */
  async blockUser(viewer: UserRow, userId: string): Promise<Schemas['BlockedUser']> {
    if (userId === viewer.id) throw new Invalid(CANNOT_BLOCK_SELF)
    const target = await findUserById(this.db, userId)
    if (!target) throw new NotFound(BLOCK_USER_NOT_FOUND)
    const { createdAt, listIds } = await this.db.transaction(async (tx) => {
      const at = await addUserBlock(tx, viewer.id, target.id)
      // Neither is told of the other any more, and what they did before leaves each other's notifications.
      await this.notifications.forget(tx, viewer.id, target.id)
      await this.notifications.forget(tx, target.id, viewer.id)
      return at
    })
    await this.wallChanged(viewer.id, target.id)
    if (listIds.length > 0) await this.invalidations.emit({ kind: 'lists-changed', listIds })
    await this.notifications.announce([viewer.id, target.id])
    return {
      id: target.id,
      blocked: {
        id: target.id,
        username: target.username,
        displayName: target.displayName,
        avatar: target.avatar,
        verified: target.verified,
      },
      createdAt,
    }
  }

  /** Idempotent: unblocking a member who is not blocked changes nothing. Follows removed by the block stay removed. */
  async unblockUser(viewer: UserRow, userId: string): Promise<void> {
    if (userId === viewer.id) throw new Invalid(CANNOT_BLOCK_SELF)
    const target = await findUserById(this.db, userId)
    if (!target) throw new NotFound(BLOCK_USER_NOT_FOUND)
    await removeUserBlock(this.db, viewer.id, target.id)
    await this.wallChanged(viewer.id, target.id)
  }

  /**
   * What a block or unblock changes in the caches (docs/architecture.md, "Caches"), for both members: their
   * timelines and per-viewer flags (`follows-changed`: their follows and what they may see changed), and their
   * cached rows and author summaries (`member-changed`: follow counters).
   */
  private async wallChanged(a: string, b: string): Promise<void> {
    for (const userId of [a, b]) {
      await this.invalidations.emit({ kind: 'follows-changed', userId })
      await this.invalidations.emit({ kind: 'member-changed', userId })
    }
  }

  async blockKeyword(viewer: UserRow, raw: string): Promise<string> {
    return (await this.filters.add(viewer.id, 'keywords', raw)).value
  }

  async unblockKeyword(viewer: UserRow, raw: string): Promise<void> {
    await this.filters.remove(viewer.id, 'keywords', raw)
  }

  async blockDomain(viewer: UserRow, raw: string): Promise<string> {
    return (await this.filters.add(viewer.id, 'domains', raw)).value
  }

  async unblockDomain(viewer: UserRow, raw: string): Promise<void> {
    await this.filters.remove(viewer.id, 'domains', raw)
  }

  /** The member's own timeline filters by their keywords and domains. */
  private async listChanged(userId: string): Promise<void> {
    await this.invalidations.emit({ kind: 'follows-changed', userId })
  }
}
