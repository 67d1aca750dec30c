// The report workflow's rules, shared by the server (which enforces them) and the SPA (which offers only the moves
// they allow). docs/product.md, "Reports". openapi.yaml's ReportReason and ReportStatus enums say the same.

import type { components } from './schema'

export type ReportStatus = components['schemas']['ReportStatus']
export type ReportReason = components['schemas']['ReportReason']

/** The report dialog's reasons, in the order it offers them. */
export const REPORT_REASONS: readonly ReportReason[] = [
  'Spam',
  'Harassment',
  'Hate',
  'Violence',
  'Sexual content',
  'Self-harm',
  'Impersonation',
  'Something else',
]

/** Where a report may go from each status: resolved and dismissed are final. */
export const REPORT_MOVES: Readonly<Record<ReportStatus, readonly ReportStatus[]>> = {
  pending: ['reviewed', 'dismissed'],
  reviewed: ['resolved', 'dismissed'],
  resolved: [],
  dismissed: [],
}

export const canMoveReport = (from: ReportStatus, to: ReportStatus): boolean => REPORT_MOVES[from].includes(to)
