import type { SnapshotFrom } from 'xstate'
import { LIMITS } from '../../api/contract/limits'
import { charCount } from '../reports/reports.rules'
import type { ReportMachine } from './report.machine'

type Snapshot = SnapshotFrom<ReportMachine>

/** The dialog shows while the member fills it and while it is on its way. */
export const selectDialogOpen = (s: Snapshot) => s.matches('editing') || s.matches('submitting')
export const selectSubmitting = (s: Snapshot) => s.hasTag('busy')
export const selectSubject = (s: Snapshot) => s.context.subject
export const selectReason = (s: Snapshot) => s.context.reason
export const selectDescription = (s: Snapshot) => s.context.description
export const selectProblem = (s: Snapshot) => s.context.problem
/** '12/1000' under the description; over the limit it turns red. */
export const selectCounter = (s: Snapshot) => ({
  used: charCount(s.context.description),
  max: LIMITS.reportDescriptionMax,
  over: charCount(s.context.description) > LIMITS.reportDescriptionMax,
})
