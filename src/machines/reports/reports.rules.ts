import { LIMITS } from '../../api/contract/limits'
import {
  canMoveReport,
  REPORT_MOVES,
  REPORT_REASONS,
  type ReportReason,
  type ReportStatus,
} from '../../api/contract/reports'

// What the report dialog and the Reports Management dialog say and allow (docs/product.md, "Reports"), shared by the
// machines, the views and the rules tests. The transition table itself is the contract's (src/api/contract/reports.ts),
// the same one the server enforces.

export { canMoveReport, REPORT_MOVES, REPORT_REASONS }
export type { ReportReason, ReportStatus }

export const REPORT_STATUS_LABEL: Readonly<Record<ReportStatus, string>> = {
  pending: 'Pending Review',
  reviewed: 'Under Review',
  resolved: 'Resolved',
  dismissed: 'Dismissed',
}

/** The dialog's tabs: dismissed reports are not a tab of their own. */
export const REPORT_TABS: ReadonlyArray<{ status: ReportStatus; label: string }> = [
  { status: 'pending', label: 'Pending' },
  { status: 'reviewed', label: 'Reviewed' },
  { status: 'resolved', label: 'Resolved' },
]

/** The buttons a move shows under the detail pane. */
export const MOVE_LABEL: Readonly<Record<ReportStatus, string>> = {
  pending: 'Pending',
  reviewed: 'Mark Under Review',
  resolved: 'Resolve',
  dismissed: 'Dismiss',
}

export const REPORT_UPDATED = 'Report updated successfully'
export const REPORT_UPDATE_FAILED = 'Failed to update report'
export const REPORT_SENT = 'Report submitted. Thank you for helping keep Wren safe.'
export const REPORT_FAILED = 'Failed to submit report'
export const REASON_REQUIRED = 'Please choose a reason'
export const DESCRIPTION_TOO_LONG = `Description must be at most ${LIMITS.reportDescriptionMax.toLocaleString('en-US')} characters`
export const NOTE_TOO_LONG = `Review note must be at most ${LIMITS.reviewNoteMax.toLocaleString('en-US')} characters`
export const REMOVE_POST_CONFIRM = 'Resolve this report and delete the reported post? This cannot be undone.'
export const EMPTY_REPORTS: Readonly<Record<ReportStatus, string>> = {
  pending: 'No reports pending review',
  reviewed: 'No reports under review',
  resolved: 'No resolved reports',
  dismissed: 'No dismissed reports',
}

/** Target text in the list and the detail pane: at most 200 characters, then an ellipsis. */
export const TARGET_TEXT_MAX = 200
export function truncateTarget(text: string, max = TARGET_TEXT_MAX): string {
  const chars = Array.from(text)
  return chars.length <= max ? text : `${chars.slice(0, max).join('')}…`
}

/** Characters as the server counts them (code points). */
export const charCount = (text: string): number => Array.from(text).length

/** The reason is one of the list and the description within its limit (plain checks: zod's JIT probes `new Function`,
 * which the app's Content-Security-Policy reports). */
export function reportFormProblem(form: { reason: string; description: string }): string | null {
  if (!(REPORT_REASONS as readonly string[]).includes(form.reason)) return REASON_REQUIRED
  if (charCount(form.description) > LIMITS.reportDescriptionMax) return DESCRIPTION_TOO_LONG
  return null
}

export const noteProblem = (note: string): string | null => (charCount(note) > LIMITS.reviewNoteMax ? NOTE_TOO_LONG : null)

/** A reporter who deleted their account: the report stays for moderators, the name does not. */
export const DELETED_MEMBER = 'Deleted member'

/** Who filed the report, as the Reports Management dialog names them: '@ana', or 'Deleted member'. */
export const reporterHandle = (report: { reporter: { username: string } | null }): string =>
  report.reporter ? `@${report.reporter.username}` : DELETED_MEMBER

/** What the report is about, in a line: '@ana', 'Post by @ana', 'Message from @ana'. */
export function targetTitle(report: { type: 'user' | 'post' | 'message'; target: { username: string | null } }): string {
  const who = report.target.username ? `@${report.target.username}` : 'a deleted member'
  if (report.type === 'user') return `Member ${who}`
  return report.type === 'post' ? `Post by ${who}` : `Message from ${who}`
}

/** The text shown for a post or message target (truncated), or a note once it is gone. */
export function targetText(report: { type: 'user' | 'post' | 'message'; target: { content: string | null } }): string | null {
  if (report.type === 'user') return null
  return report.target.content === null ? 'This post has been deleted' : truncateTarget(report.target.content)
}
