import { LIMITS } from '../../../src/api/contract/limits'
import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { Conflict, Invalid, NotFound } from '../../lib/domain-errors'
import { FILTER_LIST_CAP, normalizeDomain, normalizeKeyword } from '../../lib/filter-terms'
import { codePointLength } from '../../lib/lengths'
import { isBlockedBetween } from '../blocks/queries'
import { toUserSummary } from '../posts/present'
import type { NotificationService } from '../notifications/service'
import { findUserById } from '../users/queries'
import {
  addMuted,
  addUserMute,
  listMuted,
  type MuteList,
  type MutedValueRow,
  mutedUserPage,
  removeMuted,
  removeUserMute,
} from './queries'

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
export const tooManyMuted = (what: MuteList) => `You can mute at most ${FILTER_LIST_CAP.toLocaleString('en-US')} ${what}`

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

  constructor(deps: MuteDeps) {
    this.db = deps.db
    this.invalidations = deps.invalidations
    this.notifications = deps.notifications
  }

  async list(viewer: UserRow, page: PageRequest): Promise<Schemas['MutesResponse']> {
    const [rows, keywords, domains] = await Promise.all([
      mutedUserPage(this.db, viewer.id, page.cursor, page.offset, page.limit + 1),
      listMuted(this.db, 'keywords', viewer.id),
      listMuted(this.db, 'domains', viewer.id),
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
    return toMutedKeyword(await this.add('keywords', viewer, normalizeKeyword(raw), KEYWORD_ALREADY_MUTED))
  }

  async unmuteKeyword(viewer: UserRow, raw: string): Promise<void> {
    await this.remove('keywords', viewer, normalizeKeyword(raw), KEYWORD_NOT_MUTED)
  }

  async muteDomain(viewer: UserRow, raw: string): Promise<Schemas['MutedDomain']> {
    return toMutedDomain(await this.add('domains', viewer, normalizeDomain(raw), DOMAIN_ALREADY_MUTED))
  }

  async unmuteDomain(viewer: UserRow, raw: string): Promise<void> {
    await this.remove('domains', viewer, normalizeDomain(raw), DOMAIN_NOT_MUTED)
  }

  private async add(list: MuteList, viewer: UserRow, value: string, exists: string): Promise<MutedValueRow> {
    const outcome = await this.db.transaction((tx) => addMuted(tx, list, viewer.id, value, FILTER_LIST_CAP))
    if (outcome === 'exists') throw new Conflict(exists)
    if (outcome === 'full') throw new Invalid(tooManyMuted(list))
    await this.feedChanged(viewer.id)
    return outcome
  }

  private async remove(list: MuteList, viewer: UserRow, value: string, missing: string): Promise<void> {
    if (!(await removeMuted(this.db, list, viewer.id, value))) throw new NotFound(missing)
    await this.feedChanged(viewer.id)
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

const toMutedKeyword = (row: MutedValueRow): Schemas['MutedKeyword'] => ({
  id: row.id,
  keyword: row.value,
  createdAt: iso(row.created_at),
})

const toMutedDomain = (row: MutedValueRow): Schemas['MutedDomain'] => ({
  id: row.id,
  domain: row.value,
  createdAt: iso(row.created_at),
})
