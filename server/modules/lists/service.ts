import { LIMITS } from '../../../src/api/contract/limits'
import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import type { WriteLimits } from '../../lib/write-limits'
import { toDate } from '../../db/rows'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { Conflict, Forbidden, Invalid, NotFound } from '../../lib/domain-errors'
import { normalizeDescription, normalizeName } from '../../lib/named-group'
import { isPostId } from '../posts/queries'
import type { Page, PostService } from '../posts/service'
import { toUserSummary } from '../posts/present'
import { lockPair } from '../users/queries'
import { USER_NOT_FOUND } from '../users/service'
import {
  deleteList,
  deleteMember,
  findList,
  insertList,
  insertMember,
  isAddable,
  type ListRow,
  type ListScope,
  listPage,
  listAccess,
  memberPage,
  setSubscription,
  updateList,
} from './queries'

// The product's words (docs/product.md, "Lists").
export const LIST_NOT_FOUND = 'List not found'
export const NOT_YOUR_LIST = 'You can only change your own lists'
export const ALREADY_ON_LIST = 'This member is already on the list'
export const NOT_ON_LIST = 'This member is not on the list'
export const LIST_FULL = `A list can have at most ${LIMITS.listMembersMax.toLocaleString('en-US')} members`
export const OWN_LIST_SUBSCRIBE = 'You cannot subscribe to your own list'
export { DESCRIPTION_TOO_LONG, NAME_REQUIRED, NAME_TOO_LONG } from '../../lib/named-group'

type List = Schemas['List']
type FeedPost = Schemas['FeedPost']

/** What ListService needs, by the names of the services registry (server/services.ts). */
export interface ListDeps {
  db: Database
  /** Counted before each write (server/lib/write-limits.ts). */
  writeLimits: WriteLimits
  /** Member changes drop the list's cached timelines (posts/cache/post-caches.ts). */
  invalidations: Invalidations
  /** The list timeline is the home feed's machinery over the list's members (posts/feed-queries.ts). */
  posts: PostService
}

/**
 * Lists (docs/product.md, "Lists"): a member's named groups of members, each with its own timeline; public ones can
 * be subscribed to by others. Only the owner changes a list; a list the viewer may not read (someone else's private
 * list, or one across a block) is answered exactly like one that does not exist (404), and one they may read but do
 * not own refuses changes (403).
 */
export class ListService {
  private readonly db: Database
  private readonly writeLimits: WriteLimits
  private readonly posts: PostService
  private readonly invalidations: Invalidations

  constructor(deps: ListDeps) {
    this.db = deps.db
    this.writeLimits = deps.writeLimits
    this.invalidations = deps.invalidations
    this.posts = deps.posts
  }

  async create(viewer: UserRow, input: Schemas['CreateListRequest']): Promise<List> {
    await this.writeLimits.count('lists', viewer.id)
    const id = await insertList(this.db, viewer.id, {
      name: normalizeName(input.name),
      description: normalizeDescription(input.description),
      isPrivate: input.isPrivate ?? false,
    })
    return this.readable(viewer, id)
  }

  async lists(
    viewer: UserRow,
    scope: ListScope,
    memberId: string | undefined,
    page: PageRequest,
  ): Promise<{ lists: List[]; nextCursor: string | null }> {
    // An id that is no member's id is on none of the lists.
    const member = memberId === undefined ? undefined : isPostId(memberId) ? memberId : '00000000-0000-0000-0000-000000000000'
    const rows = await listPage(this.db, viewer.id, scope, member, page.cursor, page.offset, page.limit + 1)
    const { items, nextCursor } = keysetPage(rows, page.limit, toList)
    return { lists: items, nextCursor }
  }

  /** A list and one page of its members. */
  async detail(
    viewer: UserRow,
    id: string,
    page: PageRequest,
  ): Promise<{ list: List; members: Schemas['UserSummary'][]; nextCursor: string | null }> {
    const list = await this.readable(viewer, id)
    const rows = await memberPage(this.db, viewer.id, list.id, page.cursor, page.offset, page.limit + 1)
    const { items, nextCursor } = keysetPage(rows, page.limit, toUserSummary)
    return { list, members: items, nextCursor }
  }

  async update(viewer: UserRow, id: string, input: Schemas['UpdateListRequest']): Promise<List> {
    await this.writeLimits.count('lists', viewer.id)
    const values = {
      name: input.name === undefined ? undefined : normalizeName(input.name),
      description: input.description === undefined ? undefined : normalizeDescription(input.description),
      isPrivate: input.isPrivate,
    }
    await this.db.transaction(async (tx) => {
      await this.own(tx, viewer, id)
      await updateList(tx, id, values)
    })
    return this.readable(viewer, id)
  }

  async delete(viewer: UserRow, id: string): Promise<void> {
    await this.writeLimits.count('lists', viewer.id)
    await this.db.transaction(async (tx) => {
      await this.own(tx, viewer, id)
      await deleteList(tx, id)
    })
    await this.membersChanged(id)
  }

  /** 404 for a member who does not exist or is across a block from the owner; 409 when already on the list. */
  async addMember(viewer: UserRow, id: string, userId: string): Promise<List> {
    await this.writeLimits.count('lists', viewer.id)
    await this.db.transaction(async (tx) => {
      if (!isPostId(userId)) {
        await this.own(tx, viewer, id)
        throw new NotFound(USER_NOT_FOUND)
      }
      // The pair first, then the list, as a block does (blocks/queries.ts): a block racing this add either runs
      // first (and the add finds the wall) or waits and then takes the new row out again.
      await lockPair(tx, viewer.id, userId)
      const list = await this.own(tx, viewer, id)
      if (!(await isAddable(tx, viewer.id, userId))) throw new NotFound(USER_NOT_FOUND)
      if (list.member_count >= LIMITS.listMembersMax) throw new Invalid(LIST_FULL)
      if (!(await insertMember(tx, id, userId))) throw new Conflict(ALREADY_ON_LIST)
    })
    await this.membersChanged(id)
    return this.readable(viewer, id)
  }

  async removeMember(viewer: UserRow, id: string, userId: string): Promise<List> {
    await this.writeLimits.count('lists', viewer.id)
    await this.db.transaction(async (tx) => {
      await this.own(tx, viewer, id)
      if (!isPostId(userId) || !(await deleteMember(tx, id, userId))) throw new NotFound(NOT_ON_LIST)
    })
    await this.membersChanged(id)
    return this.readable(viewer, id)
  }

  /** Idempotent both ways. Someone else's public list only: one's own is 400, a private or unknown one 404. */
  async subscribe(viewer: UserRow, id: string, on: boolean): Promise<{ subscribed: boolean; subscriberCount: number }> {
    await this.writeLimits.count('lists', viewer.id)
    return this.db.transaction(async (tx) => {
      const list = isPostId(id) ? await findList(tx, viewer.id, id, true) : undefined
      if (!list) throw new NotFound(LIST_NOT_FOUND)
      if (list.owner_id === viewer.id) throw new Invalid(OWN_LIST_SUBSCRIBE)
      return { subscribed: on, subscriberCount: await setSubscription(tx, id, viewer.id, on) }
    })
  }

  /** The list's timeline: its members' posts and reposts, as the viewer's home feed would show them. */
  async timeline(viewer: UserRow, id: string, page: PageRequest): Promise<Page<FeedPost>> {
    const access = isPostId(id) ? await listAccess(this.db, viewer.id, id) : undefined
    if (!access) throw new NotFound(LIST_NOT_FOUND)
    return this.posts.listTimeline(viewer, id, access.member_count, page)
  }

  /** Committed: every cached timeline of the list goes (its sources changed), before the answer. */
  private async membersChanged(id: string): Promise<void> {
    await this.invalidations.emit({ kind: 'lists-changed', listIds: [id] })
  }

  private async readable(viewer: UserRow, id: string): Promise<List> {
    const row = isPostId(id) ? await findList(this.db, viewer.id, id) : undefined
    if (!row) throw new NotFound(LIST_NOT_FOUND)
    return toList(row)
  }

  /** The viewer's own list, its row locked for the rest of the transaction; 404 unseen, 403 someone else's. */
  private async own(tx: Database, viewer: UserRow, id: string): Promise<ListRow> {
    const row = isPostId(id) ? await findList(tx, viewer.id, id, true) : undefined
    if (!row) throw new NotFound(LIST_NOT_FOUND)
    if (row.owner_id !== viewer.id) throw new Forbidden(NOT_YOUR_LIST)
    return row
  }
}

function toList(row: ListRow): List {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isPrivate: row.is_private,
    memberCount: row.member_count,
    subscriberCount: row.subscriber_count,
    owner: toUserSummary({
      id: row.owner_id,
      username: row.owner_username,
      display_name: row.owner_display_name,
      avatar: row.owner_avatar,
      verified: row.owner_verified,
    }),
    subscribed: row.subscribed,
    ...(row.has_member === null ? {} : { hasMember: row.has_member }),
    createdAt: toDate(row.created_at).toISOString(),
  }
}
