import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { selectRows, type SqlExecutor } from '../../db/rows'
import type { NewPostMedia, Visibility } from '../../db/schema-posts'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'
import type { SavedPost } from '../posts/service'

// SQL of drafts and scheduled posts (schema-drafts.ts). Every read and write names the author: another member's
// draft is never found, whatever its id.

export interface DraftMediaJson {
  id: string
  kind: 'image' | 'video'
  storageKey: string
  thumbnailKey: string | null
  mime: string
  width: number | null
  height: number | null
  sizeBytes: number
  alt: string | null
}

export interface DraftRow {
  id: string
  content: string
  visibility: Visibility
  sensitive: boolean
  sensitive_reason: string | null
  scheduled_at: unknown
  failure: string | null
  created_at: unknown
  updated_at: unknown
  media: DraftMediaJson[]
  /** The list's keyset position (updated_at for drafts, scheduled_at for scheduled posts). */
  at: string
}

export type DraftKind = 'drafts' | 'scheduled'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isDraftId = (id: string) => UUID.test(id)

const columns = (position: ReturnType<typeof sql>) => sql`d.id, d.content, d.visibility, d.sensitive, d.sensitive_reason,
  d.scheduled_at, d.failure, d.created_at, d.updated_at, ${micros(position)} as at,
  coalesce((select json_agg(json_build_object(
      'id', m.id, 'kind', m.kind, 'storageKey', m.storage_key, 'thumbnailKey', m.thumbnail_key, 'mime', m.mime,
      'width', m.width, 'height', m.height, 'sizeBytes', m.size_bytes, 'alt', m.alt) order by m.position)
    from draft_media m where m.draft_id = d.id), '[]'::json) as media`

/** One of the author's drafts, or undefined (not theirs, or gone). */
export async function findDraft(db: SqlExecutor, authorId: string, id: string): Promise<DraftRow | undefined> {
  if (!isDraftId(id)) return undefined
  const [row] = await selectRows<DraftRow>(
    db,
    sql`select ${columns(sql`d.updated_at`)} from drafts d where d.id = ${id} and d.author_id = ${authorId}`,
  )
  return row
}

/**
 * One page of drafts (last saved first) or scheduled posts (soonest first), read with one extra row. Both are a
 * member's own rows, at most LIMITS.draftsPerMember of them: the author's index narrows to those.
 */
export async function listDrafts(
  db: SqlExecutor,
  authorId: string,
  kind: DraftKind,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<DraftRow[]> {
  if (kind === 'drafts') {
    const after = cursor ? sql`and (d.updated_at, d.id) < (${cursorTime(cursor)}, ${cursor.id})` : sql``
    return selectRows<DraftRow>(
      db,
      sql`select ${columns(sql`d.updated_at`)} from drafts d
          where d.author_id = ${authorId} and d.scheduled_at is null ${after}
          order by d.updated_at desc, d.id desc offset ${offset} limit ${limit}`,
    )
  }
  const after = cursor ? sql`and (d.scheduled_at, d.id) > (${cursorTime(cursor)}, ${cursor.id})` : sql``
  return selectRows<DraftRow>(
    db,
    sql`select ${columns(sql`d.scheduled_at`)} from drafts d
        where d.author_id = ${authorId} and d.scheduled_at is not null ${after}
        order by d.scheduled_at, d.id offset ${offset} limit ${limit}`,
  )
}

/**
 * Locks the author's row and counts their drafts, so two saves at once cannot both pass the cap (the second waits
 * for the first to commit, then counts its row).
 */
export async function lockAndCountDrafts(tx: SqlExecutor, authorId: string): Promise<number> {
  await tx.execute(sql`select 1 from users where id = ${authorId} for no key update`)
  const [row] = await selectRows<{ n: number }>(tx, sql`select count(*)::int as n from drafts where author_id = ${authorId}`)
  return row?.n ?? 0
}

export interface NewDraft {
  id: string
  authorId: string
  content: string
  visibility: Visibility
  sensitive: boolean
  sensitiveReason: string | null
  scheduledAt: Date | null
}

export async function insertDraft(tx: SqlExecutor, draft: NewDraft, media: Omit<NewPostMedia, 'postId'>[]): Promise<void> {
  await tx.execute(
    sql`insert into drafts (id, author_id, content, visibility, sensitive, sensitive_reason, scheduled_at)
        values (${draft.id}, ${draft.authorId}, ${draft.content}, ${draft.visibility}, ${draft.sensitive},
                ${draft.sensitiveReason}, ${draft.scheduledAt?.toISOString() ?? null}::timestamptz)`,
  )
  for (const m of media) {
    await tx.execute(
      sql`insert into draft_media (id, draft_id, position, kind, storage_key, thumbnail_key, mime, width, height, size_bytes, alt)
          values (${uuidv7()}, ${draft.id}, ${m.position}, ${m.kind}, ${m.storageKey}, ${m.thumbnailKey ?? null}, ${m.mime},
                  ${m.width ?? null}, ${m.height ?? null}, ${m.sizeBytes}, ${m.alt ?? null})`,
    )
  }
}

/** The draft's row, locked for the rest of the transaction; undefined when it is not the author's or is gone. */
export async function lockDraft(tx: SqlExecutor, authorId: string, id: string): Promise<DraftRow | undefined> {
  if (!isDraftId(id)) return undefined
  const [locked] = await selectRows<{ id: string }>(tx, sql`select id from drafts where id = ${id} and author_id = ${authorId} for update`)
  return locked ? findDraft(tx, authorId, id) : undefined
}

export interface DraftChanges {
  content: string
  visibility: Visibility
  sensitive: boolean
  sensitiveReason: string | null
  scheduledAt: Date | null
  /** Kept files in their new order, with their alt texts. */
  media: { id: string; alt: string | null }[]
}

/** Writes the changes (the caller locked the row); any change clears a failed publish's reason. */
export async function updateDraft(tx: SqlExecutor, id: string, changes: DraftChanges): Promise<void> {
  await tx.execute(
    sql`update drafts set content = ${changes.content}, visibility = ${changes.visibility}, sensitive = ${changes.sensitive},
          sensitive_reason = ${changes.sensitiveReason}, scheduled_at = ${changes.scheduledAt?.toISOString() ?? null}::timestamptz,
          failure = null, updated_at = now()
        where id = ${id}`,
  )
  const kept = changes.media.map((m) => m.id)
  await tx.execute(
    kept.length === 0
      ? sql`delete from draft_media where draft_id = ${id}`
      : sql`delete from draft_media where draft_id = ${id} and id <> all(${sql.param(kept)}::uuid[])`,
  )
  // Positions move in two steps so the unique (draft, position) never sees two rows at one position.
  await tx.execute(sql`update draft_media set position = position + 4 where draft_id = ${id}`)
  for (const [position, m] of changes.media.entries()) {
    await tx.execute(sql`update draft_media set position = ${position}, alt = ${m.alt} where id = ${m.id} and draft_id = ${id}`)
  }
}

/** Deletes the author's draft; its files' keys, for the caller to delete after commit (null: nothing deleted). */
export async function deleteDraft(db: SqlExecutor, authorId: string, id: string): Promise<string[] | null> {
  if (!isDraftId(id)) return null
  const rows = await selectRows<{ keys: string[] | null }>(
    db,
    sql`with gone as (delete from drafts where id = ${id} and author_id = ${authorId} returning id)
        select (select array_agg(k) from draft_media m, unnest(array[m.storage_key, m.thumbnail_key]) k
                where m.draft_id = gone.id and k is not null) as keys
        from gone`,
  )
  const [row] = rows
  return row ? row.keys ?? [] : null
}

/** Every file key of the member's drafts, then the drafts themselves (account deletion). */
export async function deleteAllDrafts(db: Database, authorId: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const rows = await selectRows<{ k: string }>(
      tx,
      sql`select k from drafts d join draft_media m on m.draft_id = d.id, unnest(array[m.storage_key, m.thumbnail_key]) k
          where d.author_id = ${authorId} and k is not null`,
    )
    await tx.execute(sql`delete from drafts where author_id = ${authorId}`)
    return rows.map((r) => r.k)
  })
}

/**
 * In the post's transaction: the draft as it is now, locked and deleted (its media rows with it; the files become the
 * post's). With `scheduledAt`, only while it is still scheduled for that time and not failed: a reschedule, a
 * cancel or a failure since the job was queued makes that job find nothing.
 */
export async function takeDraft(tx: SqlExecutor, authorId: string, id: string, scheduledAt?: string): Promise<SavedPost | null> {
  const draft = await lockDraft(tx, authorId, id)
  if (!draft) return null
  if (scheduledAt !== undefined) {
    if (draft.scheduled_at === null || draft.failure !== null) return null
    if (new Date(draft.scheduled_at as string).getTime() !== new Date(scheduledAt).getTime()) return null
  }
  await tx.execute(sql`delete from drafts where id = ${id}`)
  return {
    fields: {
      content: draft.content,
      visibility: draft.visibility,
      sensitive: draft.sensitive,
      sensitiveReason: draft.sensitive ? draft.sensitive_reason : null,
    },
    media: draft.media.map((m, position) => ({
      position,
      kind: m.kind,
      storageKey: m.storageKey,
      thumbnailKey: m.thumbnailKey,
      mime: m.mime,
      width: m.width,
      height: m.height,
      sizeBytes: m.sizeBytes,
      alt: m.alt,
    })),
  }
}

/** The author of a draft still scheduled for `scheduledAt`, if they may still post (not deleted). */
export async function scheduledAuthorId(db: SqlExecutor, id: string, scheduledAt: string): Promise<string | undefined> {
  const [row] = await selectRows<{ author_id: string }>(
    db,
    sql`select d.author_id from drafts d join users u on u.id = d.author_id
        where d.id = ${id} and d.scheduled_at = ${scheduledAt}::timestamptz and d.failure is null and u.deleted_at is null`,
  )
  return row?.author_id
}

/** A scheduled publish refused for good: the row stays, with why, in the Scheduled list. */
export async function markFailed(db: SqlExecutor, id: string, scheduledAt: string, failure: string): Promise<void> {
  await db.execute(
    sql`update drafts set failure = ${failure.slice(0, 500)}
        where id = ${id} and scheduled_at = ${scheduledAt}::timestamptz and failure is null`,
  )
}
