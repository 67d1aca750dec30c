import type { SnapshotFrom } from 'xstate'
import type { ReportsMachine } from './reports.machine'
import { noteProblem, REPORT_MOVES, type ReportStatus } from './reports.rules'

type Snapshot = SnapshotFrom<ReportsMachine>

export const selectOpen = (s: Snapshot) => !s.matches('closed') && !s.matches('starting')
export const selectLoading = (s: Snapshot) => s.hasTag('loading')
export const selectFailed = (s: Snapshot) => s.matches({ open: 'failed' })
export const selectSaving = (s: Snapshot) => s.matches({ open: { ready: 'saving' } })
export const selectBusy = (s: Snapshot) => s.hasTag('busy')
export const selectConfirmingRemoval = (s: Snapshot) => s.matches({ open: { ready: 'confirmingRemoval' } })
export const selectTab = (s: Snapshot) => s.context.tab
export const selectReports = (s: Snapshot) => s.context.reports
export const selectHasMore = (s: Snapshot) => s.matches({ open: { ready: 'idle' } }) && s.context.nextCursor !== null
export const selectCanReview = (s: Snapshot) => s.context.canReview
export const selectSelected = (s: Snapshot) => s.context.reports.find((r) => r.id === s.context.selectedId) ?? null
export const selectNote = (s: Snapshot) => s.context.note
export const selectNoteProblem = (s: Snapshot) => noteProblem(s.context.note)
export const selectRemovePost = (s: Snapshot) => s.context.removePost
export const selectMove = (s: Snapshot) => s.context.move
/** The moves the detail pane offers: those the table allows from the selected report's status (admins only). */
export const selectMoves = (s: Snapshot): ReportStatus[] => {
  const report = selectSelected(s)
  return s.context.canReview && report ? [...REPORT_MOVES[report.status]] : []
}
export const selectCanRemovePost = (s: Snapshot) => s.can({ type: 'removePost.toggle' }) || s.context.removePost
