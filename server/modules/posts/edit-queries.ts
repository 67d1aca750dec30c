import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { selectRows, type SqlExecutor } from '../../db/rows'
import type { Visibility } from '../../db/schema-posts'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'
import { uncountReply } from '../analytics/daily-stats'

// The SQL of editing a post and reading its history (docs/product.md, "Editing a post"); the rules are in edits.ts.

/** What an edit may change, as stored. */
export interface EditableState {
  content: string
  visibility: Visibility
  sensitive: boolean
  sensitiveReason: string | null
  /** One per media file, in media order. */
  alts: Array<string | null>
}

/** The post being edited, read under its row lock: its editable state and what the edit's rules look at. */
export interface EditedPost extends EditableState {
  id: string
  authorId: string
  replyTo: string | null
  replyToAuthorId: string | null
  linkUrl: string | null
  createdAt: Date | string
  editedAt: Date | string | null
  mediaIds: string[]
  /** Member ids recorded as mentioned. */
  mentionIds: string[]
  hashtags: string[]
}

interface EditedPostRow {
  id: string
  author_id: string
  content: string
  visibility: Visibility
  sensitive: boolean
  sensitive_reason: string | null
  reply_to: string | null
  reply_to_author_id: string | null
  link_url: string | null
  created_at: Date | string
  edited_at: Date | string | null
  media: Array<{ id: string; alt: string | null }>
  mention_ids: string[]
  hashtags: string[]
}

/** The post's editable state and indexes; the caller holds its row lock (findVisiblePost with 'update'). */
export async function readEditedPost(tx: SqlExecutor, postId: string): Promise<EditedPost | undefined> {
  const [row] = await selectRows<EditedPostRow>(
    tx,
    sql`select p.id, p.author_id, p.content, p.visibility, p.sensitive, p.sensitive_reason, p.reply_to, p.reply_to_author_id,
          p.link_url,
          p.created_at, p.edited_at,
          coalesce((select json_agg(json_build_object('id', m.id, 'alt', m.alt) order by m.position)
                    from post_media m where m.post_id = p.id), '[]'::json) as media,
          array(select pm.user_id::text from post_mentions pm where pm.post_id = p.id) as mention_ids,
          array(select h.tag from post_hashtags h where h.post_id = p.id) as hashtags
        from posts p where p.id = ${postId}`,
  )
  if (!row) return undefined
  return {
    id: row.id,
    authorId: row.author_id,
    content: row.content,
    visibility: row.visibility,
    sensitive: row.sensitive,
    sensitiveReason: row.sensitive_reason,
    alts: row.media.map((m) => m.alt),
    replyTo: row.reply_to,
    replyToAuthorId: row.reply_to_author_id,
    linkUrl: row.link_url,
    createdAt: row.created_at,
    editedAt: row.edited_at,
    mediaIds: row.media.map((m) => m.id),
    mentionIds: row.mention_ids,
    hashtags: row.hashtags,
  }
}

export interface EditWrite {
  before: EditedPost
  after: EditableState
  linkUrl: string | null
  mentionIds: readonly string[]
  hashtags: readonly string[]
}

const uuidList = (ids: readonly string[]) => sql`${sql.param([...ids])}::uuid[]`
const textList = (items: readonly string[]) => sql`${sql.param([...items])}::text[]`

/**
 * Writes an edit in the caller's transaction: the original as the first version if this is the first edit, the
 * post's new state and its new version (both at the same `now()`), alt texts, and mentions and hashtags brought to the
 * new text (the hashtag triggers keep every count exact). A public reply narrowed to a smaller audience leaves its
 * parent's count of public replies, as a deleted one does.
 */
export async function writeEdit(tx: Database, edit: EditWrite): Promise<void> {
  const { before, after } = edit
  if (before.editedAt === null) {
    await insertVersion(tx, before.id, before, sql`${before.createdAt}::timestamptz`)
  }
  await tx.execute(sql`
    update posts set content = ${after.content}, visibility = ${after.visibility}, sensitive = ${after.sensitive},
      sensitive_reason = ${after.sensitiveReason}, link_url = ${edit.linkUrl}, edited_at = now()
    where id = ${before.id}`)
  await insertVersion(tx, before.id, after, sql`now()`)
  for (const [i, id] of before.mediaIds.entries()) {
    const alt = after.alts[i] ?? null
    if (alt !== (before.alts[i] ?? null)) await tx.execute(sql`update post_media set alt = ${alt} where id = ${id}`)
  }
  await tx.execute(sql`
    delete from post_mentions where post_id = ${before.id} and not (user_id = any(${uuidList(edit.mentionIds)}))`)
  if (edit.mentionIds.length > 0) {
    await tx.execute(sql`
      insert into post_mentions (post_id, user_id)
      select ${before.id}::uuid, u from unnest(${uuidList(edit.mentionIds)}) as u
      on conflict do nothing`)
  }
  await tx.execute(sql`
    delete from post_hashtags where post_id = ${before.id} and not (tag = any(${textList(edit.hashtags)}))`)
  if (edit.hashtags.length > 0) {
    await tx.execute(sql`
      insert into post_hashtags (post_id, tag)
      select ${before.id}::uuid, t from unnest(${textList(edit.hashtags)}) as t
      on conflict do nothing`)
  }
  if (before.replyTo && before.visibility === 'public' && after.visibility !== 'public') {
    await tx.execute(sql`update posts set reply_count = greatest(0, reply_count - 1) where id = ${before.replyTo}`)
    await uncountReply(tx, before.id, before.replyTo)
  }
}

function insertVersion(tx: SqlExecutor, postId: string, state: EditableState, at: SQL) {
  return tx.execute(sql`
    insert into post_versions (id, post_id, content, visibility, sensitive, sensitive_reason, alts, created_at)
    values (${uuidv7()}, ${postId}, ${state.content}, ${state.visibility}, ${state.sensitive},
      ${state.sensitiveReason}, ${JSON.stringify(state.alts)}::jsonb, ${at})`)
}

/** The parent of a reply whose public count an edit changes, locked as a counter update locks it. */
export async function lockParent(tx: SqlExecutor, parentId: string): Promise<void> {
  await tx.execute(sql`select id from posts where id = ${parentId} for no key update`)
}

/** Of these members, those who were already told of a mention by this post (an item of theirs exists for it). */
export async function alreadyToldOfMention(tx: SqlExecutor, postId: string, memberIds: readonly string[]): Promise<Set<string>> {
  if (memberIds.length === 0) return new Set()
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`select recipient_id as id from notifications
        where group_key = ${`mention:${postId}`} and recipient_id = any(${uuidList(memberIds)})`,
  )
  return new Set(rows.map((r) => r.id))
}

export interface VersionRow {
  id: string
  content: string
  visibility: Visibility
  sensitive: boolean
  sensitive_reason: string | null
  alts: Array<string | null>
  created_at: Date | string
  /** Keyset position: microseconds of created_at. */
  at: string
}

/** One page of a post's versions, newest first, strictly before `cursor`; `limit` one more than the page. */
export function versionPage(
  db: SqlExecutor,
  postId: string,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<VersionRow[]> {
  return selectRows<VersionRow>(
    db,
    sql`select v.id, v.content, v.visibility, v.sensitive, v.sensitive_reason, v.alts, v.created_at,
          ${micros(sql`v.created_at`)} as at
        from post_versions v
        where v.post_id = ${postId}
          ${cursor ? sql`and (v.created_at, v.id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by v.created_at desc, v.id desc
        offset ${offset} limit ${limit}`,
  )
}
