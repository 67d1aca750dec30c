import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import type { WriteLimits } from '../../lib/write-limits'
import { toDate } from '../../db/rows'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { Conflict, NotFound } from '../../lib/domain-errors'
import { normalizeDescription, normalizeName } from '../../lib/named-group'
import type { PostCaches } from '../posts/cache/post-caches'
import { findVisiblePost, isPostId } from '../posts/queries'
import { POST_NOT_FOUND } from '../visibility/visibility'
import {
  bookmarkPage,
  type BookmarkRow,
  collectionIdsOf,
  collectionPage,
  type CollectionRow,
  deleteBookmark,
  deleteBookmarkOfPost,
  ensureBookmark,
  fileBookmark,
  findCollection,
  insertBookmark,
  insertCollection,
  unfileBookmark,
  updateCollection,
} from './queries'

// The product's words (docs/product.md, "Bookmarks").
export const ALREADY_BOOKMARKED = 'Post already bookmarked'
export const BOOKMARK_NOT_FOUND = 'Bookmark not found'
export const COLLECTION_NOT_FOUND = 'Collection not found'
export const ALREADY_IN_COLLECTION = 'This post is already in the collection'
export const NOT_IN_COLLECTION = 'This post is not in the collection'
export { DESCRIPTION_TOO_LONG, NAME_REQUIRED, NAME_TOO_LONG } from '../../lib/named-group'

type Bookmark = Schemas['Bookmark']
type Collection = Schemas['Collection']

/** What BookmarkService needs, by the names of the services registry (server/services.ts). */
export interface BookmarkDeps {
  db: Database
  /** Counted before each write (server/lib/write-limits.ts). */
  writeLimits: WriteLimits
  invalidations: Invalidations
  postCaches: PostCaches
}

/**
 * Bookmarks and their collections (docs/product.md, "Bookmarks"). Everything here is the owner's alone: another
 * member's bookmark or collection is answered exactly like one that does not exist (404), and the posts shown are
 * only those the owner may see now (queries.ts).
 */
export class BookmarkService {
  private readonly db: Database
  private readonly writeLimits: WriteLimits
  private readonly invalidations: Invalidations
  private readonly caches: PostCaches

  constructor(deps: BookmarkDeps) {
    this.db = deps.db
    this.writeLimits = deps.writeLimits
    this.invalidations = deps.invalidations
    this.caches = deps.postCaches
  }

  /** 404 for a post the viewer cannot see, 409 when it is already saved. */
  async create(viewer: UserRow, postId: string): Promise<Bookmark> {
    await this.writeLimits.count('lists', viewer.id)
    if (!(await findVisiblePost(this.db, viewer.id, postId))) throw new NotFound(POST_NOT_FOUND)
    const row = await insertBookmark(this.db, viewer.id, postId)
    if (!row) throw new Conflict(ALREADY_BOOKMARKED)
    await this.flagsChanged(viewer.id, postId)
    const [bookmark] = await this.present(viewer.id, [{ ...row, post_id: postId, at: '' }])
    // Deleted or hidden between the insert and this read: as if it never was visible.
    if (!bookmark) throw new NotFound(POST_NOT_FOUND)
    return bookmark
  }

  async remove(viewer: UserRow, bookmarkId: string): Promise<void> {
    await this.writeLimits.count('lists', viewer.id)
    const postId = isPostId(bookmarkId) ? await deleteBookmark(this.db, viewer.id, bookmarkId) : undefined
    if (postId === undefined) throw new NotFound(BOOKMARK_NOT_FOUND)
    await this.flagsChanged(viewer.id, postId)
  }

  /** The bookmark button of a post card: by the post's id. */
  async removeByPost(viewer: UserRow, postId: string): Promise<void> {
    await this.writeLimits.count('lists', viewer.id)
    if (!isPostId(postId) || !(await deleteBookmarkOfPost(this.db, viewer.id, postId))) throw new NotFound(BOOKMARK_NOT_FOUND)
    await this.flagsChanged(viewer.id, postId)
  }

  async list(
    viewer: UserRow,
    collectionId: string | undefined,
    page: PageRequest,
  ): Promise<{ bookmarks: Bookmark[]; nextCursor: string | null }> {
    if (collectionId !== undefined) await this.ownCollection(viewer, collectionId)
    const rows = await bookmarkPage(this.db, viewer.id, collectionId, page.cursor, page.offset, page.limit + 1)
    const { items, nextCursor } = keysetPage(rows, page.limit, (r) => r)
    return { bookmarks: await this.present(viewer.id, items), nextCursor }
  }

  // ---- collections ----------------------------------------------------------------------------------------------

  async createCollection(viewer: UserRow, input: Schemas['CreateCollectionRequest']): Promise<Collection> {
    await this.writeLimits.count('lists', viewer.id)
    const row = await insertCollection(this.db, viewer.id, {
      name: normalizeName(input.name),
      description: normalizeDescription(input.description),
      isPrivate: input.isPrivate ?? false,
    })
    return toCollection(row)
  }

  async collections(viewer: UserRow, page: PageRequest): Promise<{ collections: Collection[]; nextCursor: string | null }> {
    const rows = await collectionPage(this.db, viewer.id, page.cursor, page.offset, page.limit + 1)
    const { items, nextCursor } = keysetPage(rows, page.limit, toCollection)
    return { collections: items, nextCursor }
  }

  async updateCollection(viewer: UserRow, id: string, input: Schemas['UpdateCollectionRequest']): Promise<Collection> {
    await this.writeLimits.count('lists', viewer.id)
    const values = {
      name: input.name === undefined ? undefined : normalizeName(input.name),
      description: input.description === undefined ? undefined : normalizeDescription(input.description),
      isPrivate: input.isPrivate,
    }
    if (!isPostId(id) || !(await updateCollection(this.db, viewer.id, id, values))) {
      throw new NotFound(COLLECTION_NOT_FOUND)
    }
    return this.ownCollection(viewer, id)
  }

  /** Files a post the viewer may see, bookmarking it first when it is not saved yet; 409 when already filed. */
  async addToCollection(viewer: UserRow, collectionId: string, postId: string): Promise<Collection> {
    await this.writeLimits.count('lists', viewer.id)
    const created = await this.db.transaction(async (tx) => {
      if (!isPostId(collectionId) || !(await findCollection(tx, viewer.id, collectionId, true))) {
        throw new NotFound(COLLECTION_NOT_FOUND)
      }
      if (!(await findVisiblePost(tx, viewer.id, postId))) throw new NotFound(POST_NOT_FOUND)
      const bookmark = await ensureBookmark(tx, viewer.id, postId)
      if (!(await fileBookmark(tx, collectionId, bookmark.id))) throw new Conflict(ALREADY_IN_COLLECTION)
      return bookmark.created
    })
    if (created) await this.flagsChanged(viewer.id, postId)
    return this.ownCollection(viewer, collectionId)
  }

  /** Takes a post out of the collection; it stays bookmarked. */
  async removeFromCollection(viewer: UserRow, collectionId: string, postId: string): Promise<Collection> {
    await this.writeLimits.count('lists', viewer.id)
    await this.ownCollection(viewer, collectionId)
    if (!isPostId(postId) || !(await unfileBookmark(this.db, viewer.id, collectionId, postId))) {
      throw new NotFound(NOT_IN_COLLECTION)
    }
    return this.ownCollection(viewer, collectionId)
  }

  private async ownCollection(viewer: UserRow, id: string): Promise<Collection> {
    const row = isPostId(id) ? await findCollection(this.db, viewer.id, id) : undefined
    if (!row) throw new NotFound(COLLECTION_NOT_FOUND)
    return toCollection(row)
  }

  /** Bookmarks with their posts as the viewer sees them (cards and flags through the post caches). */
  private async present(viewerId: string, rows: readonly BookmarkRow[]): Promise<Bookmark[]> {
    const [posts, filed] = await Promise.all([
      this.caches.posts(
        viewerId,
        rows.map((r) => r.post_id),
      ),
      collectionIdsOf(
        this.db,
        rows.map((r) => r.id),
      ),
    ])
    return rows.flatMap((r) => {
      const post = posts.get(r.post_id)
      return post ? [{ id: r.id, post, collectionIds: filed.get(r.id) ?? [], createdAt: toDate(r.created_at).toISOString() }] : []
    })
  }

  /** The viewer's `bookmarked` flag of the post is cached with their other flags (posts/cache/flags.ts). */
  private async flagsChanged(userId: string, postId: string): Promise<void> {
    await this.invalidations.emit({ kind: 'reactions-changed', userId, postIds: [postId] })
  }
}

function toCollection(row: CollectionRow): Collection {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isPrivate: row.is_private,
    postCount: row.post_count,
    createdAt: toDate(row.created_at).toISOString(),
  }
}
