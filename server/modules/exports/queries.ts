import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { selectRows, type SqlExecutor } from '../../db/rows'
import type { ExportStatus } from '../../db/schema-exports'

// The SQL of data exports (docs/product.md, "Exporting your data"). Every section of the archive is read page by page
// with a keyset on (time, id) that one of the member's existing indexes serves, so an export of 100,000 posts holds
// one page at a time and never an OFFSET scan.

export interface ExportRow {
  id: string
  user_id: string
  status: ExportStatus
  created_at: string | Date
  ready_at: string | Date | null
  expires_at: string | Date | null
  size_bytes: string | number | null
}

const EXPORT_COLUMNS = sql`id, user_id, status, created_at, ready_at, expires_at, size_bytes`

/**
 * Where the last row of a page was: its time as PostgreSQL's own text (microseconds kept, unlike a JavaScript Date)
 * and its id.
 */
export interface Keyset {
  at: string
  id: string
}

/** Rows of a section carry their keyset as `k_at` / `k_id`; the writer strips them. */
export interface KeyedRow {
  k_at: string
  k_id: string
}

export async function insertExport(tx: SqlExecutor, userId: string, now: Date): Promise<ExportRow> {
  const [row] = await selectRows<ExportRow>(
    tx,
    sql`insert into exports (id, user_id, status, created_at) values (${uuidv7()}, ${userId}, 'preparing', ${now.toISOString()}::timestamptz)
        returning ${EXPORT_COLUMNS}`,
  )
  if (!row) throw new Error('The export row was not written')
  return row
}

/** A member's failed exports go when they ask again: the new one replaces them. */
export async function deleteFailedExports(tx: SqlExecutor, userId: string): Promise<void> {
  await tx.execute(sql`delete from exports where user_id = ${userId} and status = 'failed'`)
}

/** The member's exports, newest first, without those already past their expiry (their deletion may be pending). */
export async function exportsOf(db: SqlExecutor, userId: string, now: Date, limit: number): Promise<ExportRow[]> {
  return selectRows<ExportRow>(
    db,
    sql`select ${EXPORT_COLUMNS} from exports
        where user_id = ${userId} and (expires_at is null or expires_at > ${now.toISOString()}::timestamptz)
        order by created_at desc, id desc limit ${limit}`,
  )
}

export async function findExport(db: SqlExecutor, id: string): Promise<ExportRow | undefined> {
  const [row] = await selectRows<ExportRow>(db, sql`select ${EXPORT_COLUMNS} from exports where id = ${id}`)
  return row
}

/** Preparing → ready, once: a rerun that finds it ready already changes nothing (and tells nobody twice). */
export async function markReady(tx: SqlExecutor, id: string, readyAt: Date, expiresAt: Date, size: number): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`update exports set status = 'ready', ready_at = ${readyAt.toISOString()}::timestamptz,
          expires_at = ${expiresAt.toISOString()}::timestamptz, size_bytes = ${size}
        where id = ${id} and status = 'preparing' returning id`,
  )
  return rows.length === 1
}

export async function markFailed(db: SqlExecutor, id: string): Promise<void> {
  await db.execute(sql`update exports set status = 'failed' where id = ${id} and status = 'preparing'`)
}

export async function deleteExport(db: SqlExecutor, id: string): Promise<void> {
  await db.execute(sql`delete from exports where id = ${id}`)
}

export interface ProfileRow {
  id: string
  username: string
  email: string
  display_name: string
  bio: string
  avatar: string | null
  banner: string | null
  verified: boolean
  private_account: boolean
  show_sensitive_content: boolean
  allow_dms: string
  allow_mentions: string
  notifications_off: string[]
  created_at: string | Date
}

/** The member's own profile and settings: never a secret (password hash, keys, two-factor). */
export async function profileOf(db: SqlExecutor, userId: string): Promise<ProfileRow | undefined> {
  const [row] = await selectRows<ProfileRow>(
    db,
    sql`select id, username, email, display_name, bio, avatar, banner, verified, private_account, show_sensitive_content,
          allow_dms, allow_mentions, notifications_off, created_at
        from users where id = ${userId}`,
  )
  return row
}

/** `(time, id) > keyset`, or nothing for the first page. */
function after(at: SQL, id: SQL, keyset: Keyset | null): SQL {
  return keyset ? sql`and (${at}, ${id}) > (${keyset.at}::timestamptz, ${keyset.id}::uuid)` : sql``
}

/** One page of a section: the member's rows after `keyset`, oldest first. */
export type SectionPage = (db: SqlExecutor, userId: string, keyset: Keyset | null, limit: number) => Promise<KeyedRow[]>

/** The media of a post as the archive names them (files under media/, added after the JSON). */
const POST_MEDIA = sql`coalesce((select json_agg(json_build_object('file', 'media/' || m.storage_key, 'kind', m.kind,
          'mime', m.mime, 'alt', m.alt, 'width', m.width, 'height', m.height) order by m.position)
        from post_media m where m.post_id = p.id), '[]'::json) as media`

/** The member's own posts (`replies`: their replies, with what they answer). */
export function postsPage(replies: boolean): SectionPage {
  return (db, userId, keyset, limit) =>
    selectRows(
      db,
      sql`select p.created_at::text as k_at, p.id as k_id, p.id, p.created_at, p.edited_at, p.content, p.visibility,
            p.sensitive, p.sensitive_reason, p.like_count, p.repost_count, p.reply_count, p.view_count,
            ${replies ? sql`p.reply_to, (select u.username from users u where u.id = p.reply_to_author_id) as reply_to_username,` : sql``}
            ${POST_MEDIA}
          from posts p
          where p.author_id = ${userId} and p.reply_to is ${replies ? sql`not null` : sql`null`}
            ${after(sql`p.created_at`, sql`p.id`, keyset)}
          order by p.created_at, p.id limit ${limit}`,
    )
}

/**
 * Likes and reposts: which post and when. Only the post's id and author, not its text: the post is someone else's,
 * and may be hidden from the member by now (a private account they no longer follow).
 */
export function reactionsPage(table: 'likes' | 'reposts'): SectionPage {
  const t = sql.raw(table)
  return (db, userId, keyset, limit) =>
    selectRows(
      db,
      sql`select r.created_at::text as k_at, r.post_id as k_id, r.post_id, u.username as post_author, r.created_at
          from ${t} r join posts p on p.id = r.post_id join users u on u.id = p.author_id
          where r.user_id = ${userId} ${after(sql`r.created_at`, sql`r.post_id`, keyset)}
          order by r.created_at, r.post_id limit ${limit}`,
    )
}

/** Followers (`followers`) or the accounts followed. */
export function followsPage(followers: boolean): SectionPage {
  const [mine, theirs] = followers ? [sql`f.followee_id`, sql`f.follower_id`] : [sql`f.follower_id`, sql`f.followee_id`]
  return (db, userId, keyset, limit) =>
    selectRows(
      db,
      sql`select f.created_at::text as k_at, ${theirs} as k_id, u.username, u.display_name, f.created_at as since
          from follows f join users u on u.id = ${theirs}
          where ${mine} = ${userId} ${after(sql`f.created_at`, theirs, keyset)}
          order by f.created_at, ${theirs} limit ${limit}`,
    )
}

/** Members the member muted or blocked. */
export function membersPage(table: 'user_mutes' | 'user_blocks'): SectionPage {
  const mutes = table === 'user_mutes'
  const [mine, theirs] = mutes ? [sql`x.muter_id`, sql`x.muted_id`] : [sql`x.blocker_id`, sql`x.blocked_id`]
  return (db, userId, keyset, limit) =>
    selectRows(
      db,
      sql`select x.created_at::text as k_at, ${theirs} as k_id, u.username, u.display_name,
            ${mutes ? sql`x.reason,` : sql``} x.created_at
          from ${sql.raw(table)} x join users u on u.id = ${theirs}
          where ${mine} = ${userId} ${after(sql`x.created_at`, theirs, keyset)}
          order by x.created_at, ${theirs} limit ${limit}`,
    )
}

/** Muted or blocked keywords and domains: small tables keyed by member; the keyset is on the text as a uuid-free key. */
export function wordsPage(table: 'muted_keywords' | 'muted_domains' | 'blocked_keywords' | 'blocked_domains'): SectionPage {
  const column = sql.raw(table.endsWith('keywords') ? 'keyword' : 'domain')
  return (db, userId, keyset, limit) =>
    selectRows(
      db,
      // The id half of the keyset is made from the row's own text (md5 as a uuid): these tables have no uuid for
      // every row, and (created_at, text) is unique per member.
      sql`select x.created_at::text as k_at, md5(x.${column})::uuid as k_id, x.${column} as value, x.created_at
          from ${sql.raw(table)} x
          where x.user_id = ${userId} ${after(sql`x.created_at`, sql`md5(x.${column})::uuid`, keyset)}
          order by x.created_at, md5(x.${column})::uuid limit ${limit}`,
    )
}

/** The member's own lists (private ones too: they are the member's), without members (see `listMembersPage`). */
export const listsPage: SectionPage = (db, userId, keyset, limit) =>
  selectRows(
    db,
    sql`select l.created_at::text as k_at, l.id as k_id, l.id, l.name, l.description, l.is_private, l.created_at
        from lists l where l.owner_id = ${userId} ${after(sql`l.created_at`, sql`l.id`, keyset)}
        order by l.created_at, l.id limit ${limit}`,
  )

/** Members of one of the member's lists (`listId` is checked by the caller to be theirs). */
export function listMembersPage(listId: string): SectionPage {
  return (db, _userId, keyset, limit) =>
    selectRows(
      db,
      sql`select m.created_at::text as k_at, m.user_id as k_id, u.username, u.display_name, m.created_at as added_at
          from list_members m join users u on u.id = m.user_id
          where m.list_id = ${listId} ${after(sql`m.created_at`, sql`m.user_id`, keyset)}
          order by m.created_at, m.user_id limit ${limit}`,
    )
}

/** Lists the member follows (subscriptions): their names and owners. */
export const subscriptionsPage: SectionPage = (db, userId, keyset, limit) =>
  selectRows(
    db,
    sql`select s.created_at::text as k_at, s.list_id as k_id, s.list_id, l.name, o.username as owner, s.created_at
        from list_subscriptions s join lists l on l.id = s.list_id join users o on o.id = l.owner_id
        where s.user_id = ${userId} and (not l.is_private or l.owner_id = ${userId})
          ${after(sql`s.created_at`, sql`s.list_id`, keyset)}
        order by s.created_at, s.list_id limit ${limit}`,
  )

/** The member's bookmarks with the names of the collections each is filed in. */
export const bookmarksPage: SectionPage = (db, userId, keyset, limit) =>
  selectRows(
    db,
    sql`select b.created_at::text as k_at, b.id as k_id, b.post_id, u.username as post_author, b.created_at,
          coalesce((select json_agg(c.name order by c.name) from collection_posts cp
                    join bookmark_collections c on c.id = cp.collection_id where cp.bookmark_id = b.id), '[]'::json) as collections
        from bookmarks b join posts p on p.id = b.post_id join users u on u.id = p.author_id
        where b.user_id = ${userId} ${after(sql`b.created_at`, sql`b.id`, keyset)}
        order by b.created_at, b.id limit ${limit}`,
  )

export const collectionsPage: SectionPage = (db, userId, keyset, limit) =>
  selectRows(
    db,
    sql`select c.created_at::text as k_at, c.id as k_id, c.id, c.name, c.description, c.is_private, c.created_at
        from bookmark_collections c where c.user_id = ${userId} ${after(sql`c.created_at`, sql`c.id`, keyset)}
        order by c.created_at, c.id limit ${limit}`,
  )

export interface MediaFileRow extends KeyedRow {
  storage_key: string
}

/** The files of the member's posts and replies, for media/ after the JSON. */
export const mediaFilesPage = (db: Database, userId: string, keyset: Keyset | null, limit: number): Promise<MediaFileRow[]> =>
  selectRows(
    db,
    sql`select p.created_at::text as k_at, m.id as k_id, m.storage_key
        from posts p join post_media m on m.post_id = p.id
        where p.author_id = ${userId} and p.media_count > 0 ${after(sql`p.created_at`, sql`m.id`, keyset)}
        order by p.created_at, m.id limit ${limit}`,
  )
