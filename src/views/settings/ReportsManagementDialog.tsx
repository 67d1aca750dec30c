import { useId } from 'react'
import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button, input as inputRecipe } from 'styled-system/recipes'
import type { Report } from '../../api/reports.calls'
import type { ReportsRef } from '../../machines/reports/reports.machine'
import {
  EMPTY_REPORTS,
  MOVE_LABEL,
  REMOVE_POST_CONFIRM,
  REPORT_STATUS_LABEL,
  REPORT_TABS,
  type ReportStatus,
  targetText,
  targetTitle,
  reporterHandle,
} from '../../machines/reports/reports.rules'
import {
  selectBusy,
  selectCanRemovePost,
  selectCanReview,
  selectConfirmingRemoval,
  selectFailed,
  selectHasMore,
  selectLoading,
  selectMove,
  selectMoves,
  selectNote,
  selectNoteProblem,
  selectOpen,
  selectRemovePost,
  selectReports,
  selectSaving,
  selectSelected,
  selectTab,
} from '../../machines/reports/reports.selectors'
import { ConfirmDialog } from '../messages/ConfirmDialog'
import { fullDate, timeAgo } from '../post/format'
import { FirstPageStatus } from '../ui/ListStates'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'
import { Tabs } from '../ui/Tabs'
import { shownName } from '../../machines/lib/shown-name'

// The Reports Management dialog (spec: "tabs Pending, Reviewed, Resolved and a detail pane"). Admins review every
// report here; members read the reports they filed and how they ended. Everything comes from the report review actor
// (src/machines/reports); Escape, the backdrop and the close button send `reports.close`.

const TABS = REPORT_TABS.map(({ status }) => status)
const TAB_LABELS = Object.fromEntries(REPORT_TABS.map(({ status, label }) => [status, label])) as Readonly<Record<ReportStatus, string>>
const panel = css({ display: 'flex', flexDirection: 'column', gap: '3', minH: '220px', mt: '3' })

const STATUS_TONE: Record<ReportStatus, string> = {
  pending: css({ bg: 'accent.subtle', color: 'accent.text' }),
  reviewed: css({ bg: 'bg.subtle', color: 'fg.default', borderWidth: '1px', borderColor: 'border.strong' }),
  resolved: css({ bg: 'success.subtle', color: 'success.text' }),
  dismissed: css({ bg: 'bg.subtle', color: 'fg.muted' }),
}

export function StatusBadge({ status }: { status: ReportStatus }) {
  return (
    <span className={cx(css({ px: '2', py: '0.5', borderRadius: 'full', fontSize: 'xs', fontWeight: 'semibold', whiteSpace: 'nowrap' }), STATUS_TONE[status])}>
      {REPORT_STATUS_LABEL[status]}
    </span>
  )
}

export function ReportsManagementDialog({ actor }: { actor: ReportsRef }) {
  const open = useSelector(actor, selectOpen)
  const tab = useSelector(actor, selectTab)
  const loading = useSelector(actor, selectLoading)
  const failed = useSelector(actor, selectFailed)
  const canReview = useSelector(actor, selectCanReview)
  const confirmingRemoval = useSelector(actor, selectConfirmingRemoval)
  return (
    <>
      <Dialog
        open={open && !confirmingRemoval}
        onClose={() => actor.send({ type: 'reports.close' })}
        title="Reports Management"
        description={canReview ? 'Every report members filed. Select one to review it.' : 'The reports you filed and how they were handled.'}
        size="lg"
      >
        <Tabs
          label="Report status"
          idPrefix="reports"
          tabs={TABS}
          labels={TAB_LABELS}
          selected={tab}
          onSelect={(status) => actor.send({ type: 'reports.tab', status })}
          look="dialog"
          panelClassName={panel}
        >
          <FirstPageStatus
            loading={loading}
            failed={failed}
            loadingLabel="Loading reports"
            failedText="Could not load the reports."
            onRetry={() => actor.send({ type: 'reports.retry' })}
          >
            <ReportList actor={actor} />
            <DetailPane actor={actor} />
          </FirstPageStatus>
        </Tabs>
      </Dialog>
      <ConfirmDialog
        open={open && confirmingRemoval}
        title="Delete the reported post?"
        description={REMOVE_POST_CONFIRM}
        confirmLabel="Resolve and delete"
        onCancel={() => actor.send({ type: 'removal.cancel' })}
        onConfirm={() => actor.send({ type: 'removal.confirm' })}
      />
    </>
  )
}

function ReportList({ actor }: { actor: ReportsRef }) {
  const reports = useSelector(actor, selectReports)
  const tab = useSelector(actor, selectTab)
  const selected = useSelector(actor, selectSelected)
  const hasMore = useSelector(actor, selectHasMore)
  const busy = useSelector(actor, selectBusy)
  if (reports.length === 0) return <p className={css({ fontSize: 'sm', color: 'fg.muted', py: '2' })}>{EMPTY_REPORTS[tab]}</p>
  return (
    <>
      <ul aria-label="Reports" className={css({ display: 'flex', flexDirection: 'column', gap: '1', maxH: '240px', overflowY: 'auto' })}>
        {reports.map((report) => (
          <li key={report.id}>
            <button
              type="button"
              aria-pressed={selected?.id === report.id}
              onClick={() => actor.send({ type: 'report.select', id: report.id })}
              className={css({
                w: 'full',
                textAlign: 'left',
                display: 'flex',
                flexDirection: 'column',
                gap: '0.5',
                px: '3',
                py: '2',
                borderRadius: 'lg',
                borderWidth: '1px',
                borderColor: 'transparent',
                cursor: 'pointer',
                _hover: { bg: 'bg.subtle' },
                _focusVisible: { outline: '2px solid', outlineColor: 'accent' },
                '&[aria-pressed=true]': { borderColor: 'accent', bg: 'accent.subtle' },
              })}
            >
              <span className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' })}>
                <span className={css({ fontWeight: 'semibold', flex: 1, minW: 0, truncate: true })}>
                  {targetTitle(report)} · {report.reason}
                </span>
                <StatusBadge status={report.status} />
              </span>
              <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                by {reporterHandle(report)} · {timeAgo(report.createdAt)}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {hasMore ? (
        <button type="button" className={cx(button({ variant: 'ghost', size: 'sm' }), css({ alignSelf: 'center' }))} disabled={busy} onClick={() => actor.send({ type: 'reports.more' })}>
          Load more
        </button>
      ) : null}
    </>
  )
}

function DetailPane({ actor }: { actor: ReportsRef }) {
  const report = useSelector(actor, selectSelected)
  const canReview = useSelector(actor, selectCanReview)
  if (!report) {
    return <p className={css({ fontSize: 'sm', color: 'fg.subtle', borderTopWidth: '1px', borderColor: 'border', pt: '3' })}>Select a report to see its details.</p>
  }
  return (
    <section aria-label="Report details" className={css({ display: 'flex', flexDirection: 'column', gap: '3', borderTopWidth: '1px', borderColor: 'border', pt: '3' })}>
      <ReportFacts report={report} />
      {canReview ? <ReviewForm actor={actor} report={report} /> : null}
    </section>
  )
}

function ReportFacts({ report }: { report: Report }) {
  const text = targetText(report)
  const row = css({ display: 'grid', gridTemplateColumns: '7.5rem 1fr', gap: '2', fontSize: 'sm' })
  const term = css({ color: 'fg.muted' })
  return (
    <dl className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
      <div className={row}>
        <dt className={term}>Status</dt>
        <dd>
          <StatusBadge status={report.status} />
        </dd>
      </div>
      <div className={row}>
        <dt className={term}>Reported</dt>
        <dd>{targetTitle(report)}</dd>
      </div>
      {text !== null ? (
        <div className={row}>
          <dt className={term}>{report.type === 'post' ? 'Post' : 'Message'}</dt>
          <dd className={css({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontStyle: report.target.content === null ? 'italic' : 'normal', color: report.target.content === null ? 'fg.muted' : 'fg.default' })}>
            {text}
          </dd>
        </div>
      ) : null}
      <div className={row}>
        <dt className={term}>Reason</dt>
        <dd>{report.reason}</dd>
      </div>
      {report.description ? (
        <div className={row}>
          <dt className={term}>Description</dt>
          <dd className={css({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' })}>{report.description}</dd>
        </div>
      ) : null}
      <div className={row}>
        <dt className={term}>Reporter</dt>
        <dd>
          {report.reporter ? `${shownName(report.reporter)} ` : ''}
          {reporterHandle(report)} ·{' '}
          <time dateTime={report.createdAt} title={fullDate(report.createdAt)}>
            {timeAgo(report.createdAt)}
          </time>
        </dd>
      </div>
      {report.reviewNote ? (
        <div className={row}>
          <dt className={term}>Review note</dt>
          <dd className={css({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' })}>{report.reviewNote}</dd>
        </div>
      ) : null}
      {report.reviewedAt ? (
        <div className={row}>
          <dt className={term}>Reviewed</dt>
          <dd>
            <time dateTime={report.reviewedAt} title={fullDate(report.reviewedAt)}>
              {fullDate(report.reviewedAt)}
            </time>
          </dd>
        </div>
      ) : null}
    </dl>
  )
}

function ReviewForm({ actor, report }: { actor: ReportsRef; report: Report }) {
  const moves = useSelector(actor, selectMoves)
  const note = useSelector(actor, selectNote)
  const noteProblem = useSelector(actor, selectNoteProblem)
  const removePost = useSelector(actor, selectRemovePost)
  const canRemovePost = useSelector(actor, selectCanRemovePost)
  const saving = useSelector(actor, selectSaving)
  const move = useSelector(actor, selectMove)
  const noteId = useId()
  if (moves.length === 0) {
    return <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{REPORT_STATUS_LABEL[report.status]} is final: no further action.</p>
  }
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
        <label htmlFor={noteId} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
          Review note (optional; the reporter sees it)
        </label>
        <textarea
          id={noteId}
          rows={2}
          value={note}
          aria-invalid={noteProblem ? true : undefined}
          onChange={(event) => actor.send({ type: 'note.input', value: event.target.value })}
          className={cx(inputRecipe(), css({ resize: 'vertical', minH: '16', py: '2' }))}
        />
        {noteProblem ? <p role="alert" className={css({ fontSize: 'xs', color: 'danger.text' })}>{noteProblem}</p> : null}
      </div>
      {canRemovePost ? (
        <label className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' })}>
          <input
            type="checkbox"
            checked={removePost}
            disabled={saving}
            onChange={() => actor.send({ type: 'removePost.toggle' })}
            className={css({ accentColor: 'token(colors.accent)', w: '4', h: '4' })}
          />
          Also delete the reported post when resolving
        </label>
      ) : null}
      <div className={css({ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: '2' })}>
        {moves.map((to) => (
          <button
            key={to}
            type="button"
            className={button({ variant: to === 'dismissed' ? 'outline' : 'solid', size: 'sm' })}
            disabled={saving || noteProblem !== null}
            aria-busy={saving && move === to}
            onClick={() => actor.send({ type: 'report.move', to: to as Exclude<ReportStatus, 'pending'> })}
          >
            {saving && move === to ? <Spinner size={14} /> : null}
            {MOVE_LABEL[to]}
          </button>
        ))}
      </div>
    </div>
  )
}
