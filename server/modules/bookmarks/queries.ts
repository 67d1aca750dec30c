import { sql } from 'drizzle-orm'
import { uuidv7 } from '../../db/ids'
import { selectRows, type SqlExecutor } from '../../db/rows'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'
import { visibleToAlias } from '../visibility/visibility'

/**
 * SQL of bookmarks and collections (docs/product.md, "Bookmarks"). Every read joins the post and applies the one
 * visibility rule (visibility/visibility.ts) for the owner, so a bookmark of a post that was deleted (its row went by
 * cascade) or that the owner may no longer see (a block either way, a private account they stopped following) is
 * left out of lists, counts and collections alike, and comes back if the post becomes visible again.
 */

export interface BookmarkRow {
  id: string
  post_id: string
  created_at: unknown
  /** The list position, as cursor microseconds (lib/cursor.ts). */
  at: string
}

/**
 * The member's bookmark of a post, made if missing, and its row locked for the rest of the transaction (a delete
 * of it waits), so a collection can take it safely. `created` says whether this call made it.
 */
export async function ensureBookmark(
  tx: SqlExecutor,
  userId: string,
  postId: string,
): Promise<{ id: string; created_at: unknown; created: boolean }> {
  const [row] = await selectRows<{ id: string; created_at: unknown; created: boolean }>(
    tx,
    sql`insert into bookmarks (id, user_id, post_id) values (${uuidv7()}, ${userId}, ${postId})
        on conflict (user_id, post_id) do update set user_id = excluded.user_id
        returning id, created_at, (xmax = 0) as created`,
  )
  if (!row) throw new Error('The bookmark upsert returned no row')
  return row
}

/** A new bookmark, or undefined when the member had already saved the post (the unique key decides). */
export async function insertBookmark(
  db: SqlExecutor,
  userId: string,
  postId: string,
): Promise<{ id: string; created_at: unknown } | undefined> {
  const [row] = await selectRows<{ id: string; created_at: unknown }>(
    db,
    sql`insert into bookmarks (id, user_id, post_id) values (${uuidv7()}, ${userId}, ${postId})
        on conflict do nothing returning id, created_at`,
  )
  return row
}

/** Deletes the member's own bookmark (its collection entries go by cascade); the post's id, or undefined. */
export async function deleteBookmark(db: SqlExecutor, userId: string, bookmarkId: string): Promise<string | undefined> {
  const [row] = await selectRows<{ post_id: string }>(
    db,
    sql`delete from bookmarks where id = ${bookmarkId} and user_id = ${userId} returning post_id`,
  )
  return row?.post_id
}

/** Deletes the member's bookmark of a post; false when there was none. */
export async function deleteBookmarkOfPost(db: SqlExecutor, userId: string, postId: string): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`delete from bookmarks where user_id = ${userId} and post_id = ${postId} returning id`,
  )
  return rows.length > 0
}

/**
 * One page of the member's bookmarks of posts they may see, newest first; keyset on (time, bookmark id). With a
 * collection: the bookmarks filed in it, most recently filed first, keyset on (filing time, bookmark id).
 */
export function bookmarkPage(
  db: SqlExecutor,
  userId: string,
  collectionId: string | undefined,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<BookmarkRow[]> {
  if (collectionId === undefined) {
    return selectRows<BookmarkRow>(
      db,
      sql`select b.id, b.post_id, b.created_at, ${micros(sql.raw('b.created_at'))} as at
          from bookmarks b join posts p on p.id = b.post_id
          where b.user_id = ${userId} and ${visibleToAlias(userId, 'p')}
            ${cursor ? sql`and (b.created_at, b.id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
          order by b.created_at desc, b.id desc
          offset ${offset} limit ${limit}`,
    )
  }
  return selectRows<BookmarkRow>(
    db,
    sql`select b.id, b.post_id, b.created_at, ${micros(sql.raw('cp.created_at'))} as at
        from collection_posts cp
        join bookmarks b on b.id = cp.bookmark_id
        join posts p on p.id = b.post_id
        where cp.collection_id = ${collectionId} and b.user_id = ${userId} and ${visibleToAlias(userId, 'p')}
          ${cursor ? sql`and (cp.created_at, cp.bookmark_id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by cp.created_at desc, cp.bookmark_id desc
        offset ${offset} limit ${limit}`,
  )
}

/** The collections holding each of these bookmarks, by bookmark id (oldest filing first). */
export async function collectionIdsOf(db: SqlExecutor, bookmarkIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>()
  if (bookmarkIds.length === 0) return out
  const rows = await selectRows<{ bookmark_id: string; collection_id: string }>(
    db,
    sql`select bookmark_id, collection_id from collection_posts
        where bookmark_id = any(${sql.param([...bookmarkIds])}::uuid[])
        order by created_at, collection_id`,
  )
  for (const row of rows) {
    const list = out.get(row.bookmark_id)
    if (list) list.push(row.collection_id)
    else out.set(row.bookmark_id, [row.collection_id])
  }
  return out
}

// ---- collections ------------------------------------------------------------------------------------------------

export interface CollectionRow {
  id: string
  name: string
  description: string
  is_private: boolean
  post_count: number
  created_at: unknown
  at: string
}

/** The posts of a collection its owner may see: what its list shows, counted at read time (always exact). */
const postCount = (ownerId: string) => sql`(select count(*) from collection_posts pc_cp
    join bookmarks pc_b on pc_b.id = pc_cp.bookmark_id
    join posts pc_p on pc_p.id = pc_b.post_id
    where pc_cp.collection_id = c.id and ${visibleToAlias(ownerId, 'pc_p')})::int`

const collectionColumns = (ownerId: string) =>
  sql`c.id, c.name, c.description, c.is_private, ${postCount(ownerId)} as post_count, c.created_at,
      ${micros(sql.raw('c.created_at'))} as at`

export async function insertCollection(
  db: SqlExecutor,
  userId: string,
  values: { name: string; description: string; isPrivate: boolean },
): Promise<CollectionRow> {
  const [row] = await selectRows<CollectionRow>(
    db,
    sql`with c as (
          insert into bookmark_collections (id, user_id, name, description, is_private)
          values (${uuidv7()}, ${userId}, ${values.name}, ${values.description}, ${values.isPrivate})
          returning *)
        select c.id, c.name, c.description, c.is_private, 0 as post_count, c.created_at,
          ${micros(sql.raw('c.created_at'))} as at
        from c`,
  )
  if (!row) throw new Error('The collection insert returned no row')
  return row
}

/** The member's own collection, or undefined (someone else's is as absent as one that never existed). */
export async function findCollection(db: SqlExecutor, userId: string, id: string, lock = false): Promise<CollectionRow | undefined> {
  const [row] = await selectRows<CollectionRow>(
    db,
    sql`select ${collectionColumns(userId)} from bookmark_collections c
        where c.id = ${id} and c.user_id = ${userId} ${lock ? sql`for no key update of c` : sql``}`,
  )
  return row
}

/** Changes the fields given of the member's own collection; false when it is not theirs or does not exist. */
export async function updateCollection(
  db: SqlExecutor,
  userId: string,
  id: string,
  values: { name?: string; description?: string; isPrivate?: boolean },
): Promise<boolean> {
  const sets = [
    values.name !== undefined ? sql`name = ${values.name}` : undefined,
    values.description !== undefined ? sql`description = ${values.description}` : undefined,
    values.isPrivate !== undefined ? sql`is_private = ${values.isPrivate}` : undefined,
  ].filter((s) => s !== undefined)
  if (sets.length === 0) return (await findCollection(db, userId, id)) !== undefined
  const rows = await selectRows<{ id: string }>(
    db,
    sql`update bookmark_collections set ${sql.join(sets, sql`, `)}
        where id = ${id} and user_id = ${userId} returning id`,
  )
  return rows.length > 0
}

/** One page of the member's collections, newest first; keyset on (time, id). */
export function collectionPage(
  db: SqlExecutor,
  userId: string,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<CollectionRow[]> {
  return selectRows<CollectionRow>(
    db,
    sql`select ${collectionColumns(userId)} from bookmark_collections c
        where c.user_id = ${userId}
          ${cursor ? sql`and (c.created_at, c.id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by c.created_at desc, c.id desc
        offset ${offset} limit ${limit}`,
  )
}

/** Files a bookmark in a collection; false when it was already there (the primary key decides). */
export async function fileBookmark(tx: SqlExecutor, collectionId: string, bookmarkId: string): Promise<boolean> {
  const rows = await selectRows<{ bookmark_id: string }>(
    tx,
    sql`insert into collection_posts (collection_id, bookmark_id) values (${collectionId}, ${bookmarkId})
        on conflict do nothing returning bookmark_id`,
  )
  return rows.length > 0
}

/** Takes the member's bookmark of a post out of their collection; false when it was not there. */
export async function unfileBookmark(db: SqlExecutor, userId: string, collectionId: string, postId: string): Promise<boolean> {
  const rows = await selectRows<{ bookmark_id: string }>(
    db,
    sql`delete from collection_posts cp using bookmarks b
        where cp.collection_id = ${collectionId} and cp.bookmark_id = b.id
          and b.user_id = ${userId} and b.post_id = ${postId}
        returning cp.bookmark_id`,
  )
  return rows.length > 0
}
