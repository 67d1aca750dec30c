import { sql } from 'drizzle-orm'
import { uuidv7 } from '../../db/ids'
import { selectRows, type SqlExecutor } from '../../db/rows'
import type { ReportStatus, ReportType } from '../../db/schema-reports'
import { type Cursor, cursorTime, micros } from '../../lib/cursor'

// The SQL of reports (docs/product.md, "Reports"); who may file, see and review what lives in service.ts.

export interface NewReport {
  reporterId: string
  type: ReportType
  targetId: string
  targetUserId: string
  postId: string | null
  messageId: string | null
  messageText: string | null
  reason: string
  description: string | null
}

/**
 * Files a report unless the reporter has an open one (pending or reviewed) on the same target: the partial unique
 * index decides, so two reports at once make one row. Returns the new id, or undefined for a duplicate.
 */
export async function insertReport(db: SqlExecutor, r: NewReport): Promise<string | undefined> {
  const [row] = await selectRows<{ id: string }>(
    db,
    sql`insert into reports (id, reporter_id, type, target_id, target_user_id, post_id, message_id, message_text,
          reason, description)
        values (${uuidv7()}, ${r.reporterId}, ${r.type}, ${r.targetId}, ${r.targetUserId}, ${r.postId},
          ${r.messageId}, ${r.messageText}, ${r.reason}, ${r.description})
        on conflict (reporter_id, type, target_id) where status in ('pending', 'reviewed') do nothing
        returning id`,
  )
  return row?.id
}

export interface ReportRowOut {
  id: string
  type: ReportType
  status: ReportStatus
  reason: string
  description: string | null
  created_at: unknown
  at: string
  review_note: string | null
  reviewed_at: unknown
  reporter_id: string | null
  reporter_username: string | null
  reporter_display_name: string | null
  reporter_avatar: string | null
  reporter_verified: boolean | null
  target_id: string
  target_username: string | null
  target_display_name: string | null
  post_id: string | null
  post_content: string | null
  message_text: string | null
}

const columns = sql`r.id, r.type, r.status, r.reason, r.description, r.created_at, ${micros(sql`r.created_at`)} as at,
  r.review_note, r.reviewed_at,
  rp.id as reporter_id, rp.username as reporter_username, rp.display_name as reporter_display_name,
  rp.avatar as reporter_avatar, rp.verified as reporter_verified,
  r.target_id, tu.username as target_username, tu.display_name as target_display_name,
  r.post_id, p.content as post_content, r.message_text`

const joins = sql`from reports r
  left join users rp on rp.id = r.reporter_id
  left join users tu on tu.id = r.target_user_id
  left join posts p on p.id = r.post_id`

export interface ReportFilter {
  /** Only this reporter's reports (a member's own list); undefined: every report (admins). */
  reporterId: string | undefined
  status: ReportStatus | undefined
}

/** One page of reports, newest first; keyset on (created time, id). */
export async function reportPage(
  db: SqlExecutor,
  filter: ReportFilter,
  cursor: Cursor | undefined,
  offset: number,
  limit: number,
): Promise<ReportRowOut[]> {
  return selectRows<ReportRowOut>(
    db,
    sql`select ${columns} ${joins}
        where true
          ${filter.reporterId ? sql`and r.reporter_id = ${filter.reporterId}` : sql``}
          ${filter.status ? sql`and r.status = ${filter.status}` : sql``}
          ${cursor ? sql`and (r.created_at, r.id) < (${cursorTime(cursor)}, ${cursor.id}::uuid)` : sql``}
        order by r.created_at desc, r.id desc
        offset ${offset} limit ${limit}`,
  )
}

export async function reportById(db: SqlExecutor, id: string): Promise<ReportRowOut | undefined> {
  const [row] = await selectRows<ReportRowOut>(db, sql`select ${columns} ${joins} where r.id = ${id}`)
  return row
}

export interface LockedReport {
  id: string
  type: ReportType
  status: ReportStatus
  reporter_id: string | null
  post_id: string | null
  /** For the audit log's words: who filed it and whom it is about (null: a deleted member). */
  reporter_username: string | null
  target_username: string | null
}

/** The report's row, locked for its review (two admins reviewing at once are serialized). */
export async function lockReport(tx: SqlExecutor, id: string): Promise<LockedReport | undefined> {
  const [row] = await selectRows<LockedReport>(
    tx,
    sql`select r.id, r.type, r.status, r.reporter_id, r.post_id,
          (select username from users where id = r.reporter_id) as reporter_username,
          (select username from users where id = r.target_user_id) as target_username
        from reports r where r.id = ${id} for no key update of r`,
  )
  return row
}

export async function setReview(
  tx: SqlExecutor,
  id: string,
  status: ReportStatus,
  note: string | null,
  reviewerId: string,
): Promise<void> {
  await tx.execute(
    sql`update reports set status = ${status}, review_note = coalesce(${note}, review_note), reviewed_at = now(),
          reviewed_by = ${reviewerId}
        where id = ${id}`,
  )
}
