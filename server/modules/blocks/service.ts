import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { Conflict, Invalid, NotFound } from '../../lib/domain-errors'
import { FILTER_LIST_CAP, normalizeDomain, normalizeKeyword } from '../../lib/filter-terms'
import type { NotificationService } from '../notifications/service'
import { findUserById } from '../users/queries'
import {
  addBlocked,
  addUserBlock,
  type BlockList,
  blockedUserPage,
  listBlocked,
  removeBlocked,
  removeUserBlock,
} from './queries'

// The product's words (docs/product.md, "Blocks"); the keyword and domain rules are shared with mutes.
export const CANNOT_BLOCK_SELF = 'You cannot block yourself'
export const BLOCK_USER_NOT_FOUND = 'User not found'
export const KEYWORD_EXISTS = 'This keyword is already blocked'
export const KEYWORD_NOT_BLOCKED = 'This keyword is not blocked'
export const DOMAIN_EXISTS = 'This domain is already blocked'
export const DOMAIN_NOT_BLOCKED = 'This domain is not blocked'
/** How many keywords, and how many domains, one member may block. */
export const BLOCK_LIST_CAP = FILTER_LIST_CAP
export const tooMany = (what: 'keywords' | 'domains') =>
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

  constructor(deps: BlockDeps) {
    this.db = deps.db
    this.invalidations = deps.invalidations
    this.notifications = deps.notifications
  }

  async list(viewer: UserRow, page: PageRequest): Promise<Schemas['BlocksResponse']> {
    const [rows, keywords, domains] = await Promise.all([
      blockedUserPage(this.db, viewer.id, page.cursor, page.offset, page.limit + 1),
      listBlocked(this.db, 'keywords', viewer.id),
      listBlocked(this.db, 'domains', viewer.id),
    ])
    const { items: users, nextCursor } = keysetPage(rows, page.limit, (r) => ({
      id: r.id,
      blocked: { id: r.id, username: r.username, displayName: r.display_name, avatar: r.avatar, verified: r.verified },
      createdAt: new Date(r.created_at as string | Date).toISOString(),
    }))
    return { users, keywords, domains, nextCursor }
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
    const keyword = normalizeKeyword(raw)
    await this.add('keywords', viewer, keyword, KEYWORD_EXISTS)
    return keyword
  }

  async unblockKeyword(viewer: UserRow, raw: string): Promise<void> {
    if (!(await removeBlocked(this.db, 'keywords', viewer.id, normalizeKeyword(raw)))) {
      throw new NotFound(KEYWORD_NOT_BLOCKED)
    }
    await this.listChanged(viewer.id)
  }

  async blockDomain(viewer: UserRow, raw: string): Promise<string> {
    const domain = normalizeDomain(raw)
    await this.add('domains', viewer, domain, DOMAIN_EXISTS)
    return domain
  }

  async unblockDomain(viewer: UserRow, raw: string): Promise<void> {
    if (!(await removeBlocked(this.db, 'domains', viewer.id, normalizeDomain(raw)))) {
      throw new NotFound(DOMAIN_NOT_BLOCKED)
    }
    await this.listChanged(viewer.id)
  }

  private async add(list: BlockList, viewer: UserRow, value: string, exists: string): Promise<void> {
    const outcome = await this.db.transaction((tx) => addBlocked(tx, list, viewer.id, value, BLOCK_LIST_CAP))
    if (outcome === 'exists') throw new Conflict(exists)
    if (outcome === 'full') throw new Invalid(tooMany(list))
    await this.listChanged(viewer.id)
  }

  /** The member's own timeline filters by their keywords and domains. */
  private async listChanged(userId: string): Promise<void> {
    await this.invalidations.emit({ kind: 'follows-changed', userId })
  }
}
