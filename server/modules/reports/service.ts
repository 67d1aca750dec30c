import { canMoveReport } from '../../../src/api/contract/reports'
import type { Database } from '../../db/client'
import type { WriteLimits } from '../../lib/write-limits'
import { isUuid } from '../../db/ids'
import type { UserRow } from '../../db/schema'
import type { ReportStatus } from '../../db/schema-reports'
import type { Schemas } from '../../http/handler-types'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { Conflict, Forbidden, Invalid, NotFound } from '../../lib/domain-errors'
import { recordAudit } from '../admin/queries'
import { isBlockedBetween } from '../blocks/queries'
import { findVisibleMessage } from '../messages/queries'
import type { NotificationService } from '../notifications/service'
import { findVisiblePost } from '../posts/queries'
import type { PostService } from '../posts/service'
import { toUserSummary } from '../posts/present'
import { findUserById } from '../users/queries'
import { insertReport, lockReport, type LockedReport, type NewReport, reportById, reportPage, type ReportRowOut, setReview } from './queries'

// The product's words (docs/product.md, "Reports").
export const CANNOT_REPORT_SELF = 'You cannot report yourself'
export const CANNOT_REPORT_OWN_POST = 'You cannot report your own post'
export const CANNOT_REPORT_OWN_MESSAGE = 'You cannot report your own message'
export const ALREADY_REPORTED = 'You already reported this; it is awaiting review'
export const REPORT_USER_NOT_FOUND = 'User not found'
export const REPORT_POST_NOT_FOUND = 'Post not found'
export const REPORT_MESSAGE_NOT_FOUND = 'Message not found'
export const REPORT_NOT_FOUND = 'Report not found'
export const ADMINS_ONLY = 'Admin privileges required'
export const REMOVE_ONLY_WHEN_RESOLVING = 'Only a post report being resolved can remove its post'
export const cannotMove = (from: ReportStatus, to: ReportStatus) =>
  `A ${from} report cannot be marked ${to}` + (from === 'resolved' || from === 'dismissed' ? ` (${from} is final)` : '')

type Report = Schemas['Report']

/** The status as the Reports Management dialog labels it. */
const STATUS_WORDS: Record<ReportStatus, string> = {
  pending: 'Pending Review',
  reviewed: 'Under Review',
  resolved: 'Resolved',
  dismissed: 'Dismissed',
}

/** An audit line an admin can read: "Marked @gus's report of @tom's post Resolved (post deleted)". */
function auditWords(report: LockedReport, to: ReportStatus, removePost: boolean): string {
  // A member who deleted their account is named as such (their reports stay for moderators).
  const target = report.target_username === null ? 'a deleted member' : `@${report.target_username}`
  const reporter = report.reporter_username === null ? "a deleted member's" : `@${report.reporter_username}'s`
  const about = report.type === 'user' ? target : `${target}'s ${report.type}`
  return `Marked ${reporter} report of ${about} ${STATUS_WORDS[to]}${removePost ? ' (post deleted)' : ''}`
}
const iso = (value: unknown) => new Date(value as string | Date).toISOString()
const blankToNull = (text: string | undefined) => (text === undefined || text.trim() === '' ? null : text.trim())

function toReport(row: ReportRowOut): Report {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    reason: row.reason,
    description: row.description,
    reporter:
      row.reporter_id === null
        ? null
        : toUserSummary({
            id: row.reporter_id,
            username: row.reporter_username ?? '',
            display_name: row.reporter_display_name ?? '',
            avatar: row.reporter_avatar,
            verified: row.reporter_verified ?? false,
          }),
    target: {
      id: row.target_id,
      username: row.target_username,
      displayName: row.target_display_name,
      content: row.type === 'user' ? null : row.type === 'post' ? row.post_content : row.message_text,
    },
    createdAt: iso(row.created_at),
    reviewNote: row.review_note,
    reviewedAt: row.reviewed_at === null ? null : iso(row.reviewed_at),
  }
}

export interface ReportDeps {
  db: Database
  /** Counted before each write (server/lib/write-limits.ts). */
  writeLimits: WriteLimits
  notifications: NotificationService
  posts: PostService
}

interface Filing {
  reason: string
  description?: string
}

/**
 * Reports (docs/product.md, "Reports"): members report a member, a post or a message; they see the reports they
 * made and how they ended; admins see every report and move it along pending -> reviewed -> resolved, or dismiss it.
 */
export class ReportService {
  private readonly db: Database
  private readonly writeLimits: WriteLimits
  private readonly notifications: NotificationService
  private readonly posts: PostService

  constructor(deps: ReportDeps) {
    this.db = deps.db
    this.writeLimits = deps.writeLimits
    this.notifications = deps.notifications
    this.posts = deps.posts
  }

  async reportUser(viewer: UserRow, userId: string, filing: Filing): Promise<Report> {
    if (userId === viewer.id) throw new Invalid(CANNOT_REPORT_SELF)
    const user = await findUserById(this.db, userId)
    if (!user || (await isBlockedBetween(this.db, viewer.id, user.id))) throw new NotFound(REPORT_USER_NOT_FOUND)
    return this.file(viewer, filing, { type: 'user', targetId: user.id, targetUserId: user.id })
  }

  async reportPost(viewer: UserRow, postId: string, filing: Filing): Promise<Report> {
    const post = await findVisiblePost(this.db, viewer.id, postId)
    if (!post) throw new NotFound(REPORT_POST_NOT_FOUND)
    if (post.authorId === viewer.id) throw new Invalid(CANNOT_REPORT_OWN_POST)
    return this.file(viewer, filing, { type: 'post', targetId: post.id, targetUserId: post.authorId, postId: post.id })
  }

  /** The reporter's browser sends the text it decrypted: the server never reads messages otherwise. */
  async reportMessage(viewer: UserRow, messageId: string, filing: Filing & { messageText: string }): Promise<Report> {
    const message = await findVisibleMessage(this.db, messageId, viewer.id)
    if (!message || message.deleted) throw new NotFound(REPORT_MESSAGE_NOT_FOUND)
    if (message.sender_id === viewer.id) throw new Invalid(CANNOT_REPORT_OWN_MESSAGE)
    return this.file(viewer, filing, {
      type: 'message',
      targetId: message.id,
      targetUserId: message.sender_id,
      messageId: message.id,
      messageText: filing.messageText,
    })
  }

  private async file(
    viewer: UserRow,
    filing: Filing,
    target: Pick<NewReport, 'type' | 'targetId' | 'targetUserId'> & Partial<NewReport>,
  ): Promise<Report> {
    await this.writeLimits.count('reports', viewer.id)
    const id = await insertReport(this.db, {
      postId: null,
      messageId: null,
      messageText: null,
      ...target,
      reporterId: viewer.id,
      reason: filing.reason,
      description: blankToNull(filing.description),
    })
    if (!id) throw new Conflict(ALREADY_REPORTED)
    const row = await reportById(this.db, id)
    if (!row) throw new Error(`report ${id} vanished right after it was filed`)
    return toReport(row)
  }

  /** Admins: every report; members: the reports they filed. */
  async list(viewer: UserRow, status: ReportStatus | undefined, page: PageRequest): Promise<Schemas['ReportsPage']> {
    const rows = await reportPage(
      this.db,
      { reporterId: viewer.isAdmin ? undefined : viewer.id, status },
      page.cursor,
      page.offset,
      page.limit + 1,
    )
    const { items, nextCursor } = keysetPage(rows, page.limit, toReport)
    return { reports: items, nextCursor }
  }

  /**
   * Admins move a report along the workflow (src/api/contract/reports.ts): the move, the reporter's notification and
   * the audit entry in one transaction, under the report's row lock. Removing the post comes after, as the admin.
   */
  async review(
    viewer: UserRow,
    id: string,
    change: { status: ReportStatus; reviewNote?: string; removePost?: boolean },
  ): Promise<Report> {
    if (!viewer.isAdmin) throw new Forbidden(ADMINS_ONLY)
    if (!isUuid(id)) throw new NotFound(REPORT_NOT_FOUND)
    const note = blankToNull(change.reviewNote)
    const outcome = await this.db.transaction(async (tx) => {
      const report = await lockReport(tx, id)
      if (!report) throw new NotFound(REPORT_NOT_FOUND)
      if (!canMoveReport(report.status, change.status)) throw new Conflict(cannotMove(report.status, change.status))
      const removePost = change.removePost === true
      if (removePost && (report.type !== 'post' || change.status !== 'resolved')) {
        throw new Invalid(REMOVE_ONLY_WHEN_RESOLVING)
      }
      await setReview(tx, id, change.status, note, viewer.id)
      // A reporter who deleted their account has nobody left to tell.
      const reporterId = report.reporter_id
      const told =
        reporterId === null
          ? []
          : await this.notifications.record(tx, [
              { kind: 'report', recipientId: reporterId, actorId: viewer.id, postId: null, reportId: id },
            ])
      await recordAudit(tx, viewer, 'review-report', auditWords(report, change.status, removePost), {
        reportId: id,
        from: report.status,
        to: change.status,
        removePost,
      })
      return { told, reporterId: report.reporter_id, removePostId: removePost ? report.post_id : null }
    })
    // The reporter's item shows the report's status, so their first page changes even when they are not told.
    await this.notifications.announce([...outcome.told, ...(outcome.reporterId === null ? [] : [outcome.reporterId])])
    if (outcome.removePostId) {
      try {
        await this.posts.delete(viewer, outcome.removePostId)
      } catch (err) {
        // Already gone (or no longer visible to this admin): the report is resolved either way.
        if (!(err instanceof NotFound)) throw err
      }
    }
    const row = await reportById(this.db, id)
    if (!row) throw new NotFound(REPORT_NOT_FOUND)
    return toReport(row)
  }
}
