import { LIMITS } from '../../../src/api/contract/limits'
import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { Conflict, Invalid, NotFound } from '../../lib/domain-errors'
import { FILTER_LIST_CAP } from '../../lib/filter-terms'
import { codePointLength } from '../../lib/lengths'
import { isBlockedBetween } from '../blocks/queries'
import { FilterLists, type FilterList, type FilterRow } from '../filters/service'
import { toUserSummary } from '../posts/present'
import type { NotificationService } from '../notifications/service'
import { findUserById } from '../users/queries'
import { addUserMute, mutedUserPage, removeUserMute } from './queries'

// The product's words (docs/product.md, "Mutes"); keyword and domain rules are the blocks' (lib/filter-terms.ts).
export const CANNOT_MUTE_SELF = 'You cannot mute yourself'
export const MUTE_USER_NOT_FOUND = 'User not found'
export const USER_ALREADY_MUTED = 'This user is already muted'
export const USER_NOT_MUTED = 'This user is not muted'
export const REASON_TOO_LONG = `Reason must be at most ${LIMITS.muteReasonMax} characters`
export const KEYWORD_ALREADY_MUTED = 'This keyword is already muted'
export const KEYWORD_NOT_MUTED = 'This keyword is not muted'
export const DOMAIN_ALREADY_MUTED = 'This domain is already muted'
export const DOMAIN_NOT_MUTED = 'This domain is not muted'
export const tooManyMuted = (what: FilterList) => `You can mute at most ${FILTER_LIST_CAP.toLocaleString('en-US')} ${what}`

const iso = (value: unknown) => new Date(value as string | Date).toISOString()

/** What MuteService needs, by the names of the services registry (server/services.ts). */
export interface MuteDeps {
  db: Database
  invalidations: Invalidations
  notifications: NotificationService
}

/**
 * Muting members, keywords and domains (docs/product.md, "Mutes"): one-way and silent. Only the muter's home feed
 * changes (posts/feed-queries.ts); the muted member is told nothing and may still see, follow and answer the muter.
 */
export class MuteService {
  private readonly db: Database
  private readonly invalidations: Invalidations
  private readonly notifications: NotificationService
  private readonly filters: FilterLists

  constructor(deps: MuteDeps) {
    this.db = deps.db
    this.invalidations = deps.invalidations
    this.notifications = deps.notifications
    this.filters = new FilterLists(
      deps.db,
      { keywords: 'muted_keywords', domains: 'muted_domains', ids: true },
      {
        exists: { keywords: KEYWORD_ALREADY_MUTED, domains: DOMAIN_ALREADY_MUTED },
        missing: { keywords: KEYWORD_NOT_MUTED, domains: DOMAIN_NOT_MUTED },
        tooMany: tooManyMuted,
      },
      (userId) => this.feedChanged(userId),
    )
  }

  async list(viewer: UserRow, page: PageRequest): Promise<Schemas['MutesResponse']> {
    const [rows, { keywords, domains }] = await Promise.all([
      mutedUserPage(this.db, viewer.id, page.cursor, page.offset, page.limit + 1),
      this.filters.list(viewer.id),
    ])
    const { items: mutedUsers, nextCursor } = keysetPage(rows, page.limit, (r) => ({
      id: r.id,
      reason: r.reason,
      muted: toUserSummary(r),
      createdAt: iso(r.created_at),
    }))
    return {
      mutedUsers,
      mutedKeywords: keywords.map(toMutedKeyword),
      mutedDomains: domains.map(toMutedDomain),
      nextCursor,
    }
  }

  /** A second mute of the same member is 409 (its reason stays as it was). */
  async muteUser(viewer: UserRow, userId: string, rawReason: string | undefined): Promise<Schemas['MutedUser']> {
    const reason = normalizeReason(rawReason)
    const target = await this.memberFor(viewer, userId)
    const createdAt = await this.db.transaction(async (tx) => {
      const at = await addUserMute(tx, viewer.id, target.id, reason)
      // The muter hears nothing more from them, and what they did before leaves the muter's notifications.
      if (at !== undefined) await this.notifications.forget(tx, viewer.id, target.id)
      return at
    })
    if (createdAt === undefined) throw new Conflict(USER_ALREADY_MUTED)
    await this.feedChanged(viewer.id)
    await this.notifications.announce([viewer.id])
    return {
      id: target.id,
      reason,
      muted: {
        id: target.id,
        username: target.username,
        displayName: target.displayName,
        avatar: target.avatar,
        verified: target.verified,
      },
      createdAt,
    }
  }

  async unmuteUser(viewer: UserRow, userId: string): Promise<void> {
    const target = await this.memberFor(viewer, userId)
    if (!(await removeUserMute(this.db, viewer.id, target.id))) throw new NotFound(USER_NOT_MUTED)
    await this.feedChanged(viewer.id)
  }

  /** The member to mute or unmute: not oneself, and someone who exists for the viewer (not across a block). */
  private async memberFor(viewer: UserRow, userId: string): Promise<UserRow> {
    if (userId === viewer.id) throw new Invalid(CANNOT_MUTE_SELF)
    const target = await findUserById(this.db, userId)
    if (!target || (await isBlockedBetween(this.db, viewer.id, target.id))) throw new NotFound(MUTE_USER_NOT_FOUND)
    return target
  }

  async muteKeyword(viewer: UserRow, raw: string): Promise<Schemas['MutedKeyword']> {
    return toMutedKeyword(await this.filters.add(viewer.id, 'keywords', raw))
  }

  async unmuteKeyword(viewer: UserRow, raw: string): Promise<void> {
    await this.filters.remove(viewer.id, 'keywords', raw)
  }

  async muteDomain(viewer: UserRow, raw: string): Promise<Schemas['MutedDomain']> {
    return toMutedDomain(await this.filters.add(viewer.id, 'domains', raw))
  }

  async unmuteDomain(viewer: UserRow, raw: string): Promise<void> {
    await this.filters.remove(viewer.id, 'domains', raw)
  }

  /**
   * The muter's cached timeline has the mutes baked in (docs/architecture.md, "Caches"): `follows-changed` evicts it
   * (and their per-viewer flags, harmlessly), as a change of their blocked keywords does. Nobody else's changes.
   */
  private async feedChanged(userId: string): Promise<void> {
    await this.invalidations.emit({ kind: 'follows-changed', userId })
  }
}

/** Trimmed; blank is no reason. Counted in code points, like the contract's maxLength. */
function normalizeReason(raw: string | undefined): string | null {
  const reason = raw?.trim() ?? ''
  if (reason === '') return null
  if (codePointLength(reason) > LIMITS.muteReasonMax) throw new Invalid(REASON_TOO_LONG)
  return reason
}

// Mute rows always carry an id (FilterTables.ids).
const toMutedKeyword = (row: FilterRow): Schemas['MutedKeyword'] => ({
  id: row.id as string,
  keyword: row.value,
  createdAt: iso(row.created_at),
})

const toMutedDomain = (row: FilterRow): Schemas['MutedDomain'] => ({
  id: row.id as string,
  domain: row.value,
  createdAt: iso(row.created_at),
})
