import { useId, type FormEvent, type ReactNode } from 'react'
import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button, input as inputRecipe } from 'styled-system/recipes'
import type { ReportSubject } from '../../api/reports.calls'
import { reportMachine, type ReportRef } from '../../machines/report/report.machine'
import {
  selectCounter,
  selectDescription,
  selectDialogOpen,
  selectProblem,
  selectReason,
  selectSubject,
  selectSubmitting,
} from '../../machines/report/report.selectors'
import { REPORT_REASONS, type ReportReason } from '../../machines/reports/reports.rules'
import { ScreenActor } from '../actors'
import { FormError } from '../ui/Field'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'

// The report dialog: a reason (radio list) and an optional description with its counter. Everything comes from the
// report actor (src/machines/report); Escape, the backdrop and Cancel send `report.cancel`.

const TITLE: Record<ReportSubject['kind'], string> = { user: 'Report user', post: 'Report post', message: 'Report message' }
const INTRO: Record<ReportSubject['kind'], string> = {
  user: 'Tell the moderators what is wrong with this account.',
  post: 'Tell the moderators what is wrong with this post.',
  message:
    'Tell the moderators what is wrong with this message. Its text, which only you and the sender can read, is included in your report.',
}

const reasonRow = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2.5',
  px: '3',
  py: '2',
  borderRadius: 'lg',
  borderWidth: '1px',
  borderColor: 'border',
  fontSize: 'sm',
  cursor: 'pointer',
  _hover: { bg: 'bg.subtle' },
  '&:has(input:checked)': { borderColor: 'accent', bg: 'accent.subtle' },
  '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'accent', outlineOffset: '1px' },
})

export function ReportDialog({ actor }: { actor: ReportRef }) {
  const open = useSelector(actor, selectDialogOpen)
  const subject = useSelector(actor, selectSubject)
  const reason = useSelector(actor, selectReason)
  const description = useSelector(actor, selectDescription)
  const problem = useSelector(actor, selectProblem)
  const counter = useSelector(actor, selectCounter)
  const submitting = useSelector(actor, selectSubmitting)
  const descriptionId = useId()
  if (!subject) return null
  const cancel = () => {
    if (!submitting) actor.send({ type: 'report.cancel' })
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    actor.send({ type: 'report.submit' })
  }
  return (
    <Dialog open={open} onClose={cancel} title={TITLE[subject.kind]} description={INTRO[subject.kind]}>
      <form onSubmit={submit} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
        {subject.kind === 'message' ? (
          <blockquote
            className={css({ borderLeftWidth: '3px', borderColor: 'border.strong', pl: '3', fontSize: 'sm', color: 'fg.muted', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxH: '24', overflowY: 'auto' })}
          >
            {subject.messageText}
          </blockquote>
        ) : null}
        <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
          <legend className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '2' })}>Reason</legend>
          <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '1.5' })}>
            {REPORT_REASONS.map((r, index) => (
              <label key={r} className={reasonRow}>
                <input
                  type="radio"
                  name="report-reason"
                  value={r}
                  checked={reason === r}
                  data-autofocus={index === 0 ? '' : undefined}
                  onChange={() => actor.send({ type: 'report.reason', reason: r as ReportReason })}
                  className={css({ accentColor: 'token(colors.accent)' })}
                />
                {r}
              </label>
            ))}
          </div>
        </fieldset>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
          <label htmlFor={descriptionId} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
            Description (optional)
          </label>
          <textarea
            id={descriptionId}
            rows={3}
            value={description}
            aria-describedby={`${descriptionId}-count`}
            aria-invalid={counter.over ? true : undefined}
            onChange={(event) => actor.send({ type: 'report.description', value: event.target.value })}
            className={cx(inputRecipe(), css({ resize: 'vertical', minH: '20', py: '2' }))}
          />
          <p id={`${descriptionId}-count`} className={css({ alignSelf: 'flex-end', fontSize: 'xs', color: counter.over ? 'danger.text' : 'fg.muted' })}>
            {counter.used.toLocaleString('en-US')}/{counter.max.toLocaleString('en-US')}
          </p>
        </div>
        <FormError message={problem} />
        <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2' })}>
          <button type="button" className={button({ variant: 'outline' })} onClick={cancel} disabled={submitting}>
            Cancel
          </button>
          <button type="submit" className={button({ variant: 'danger' })} disabled={submitting} aria-busy={submitting}>
            {submitting ? <Spinner size={16} /> : null}
            Report
          </button>
        </div>
      </form>
    </Dialog>
  )
}

/**
 * Runs a report actor while shown and hands the control that opens the dialog (a menu item, a button) a function
 * that opens it about a subject; renders the dialog.
 */
export function ReportAbout({ children }: { children: (report: (subject: ReportSubject) => void) => ReactNode }) {
  return (
    <ScreenActor logic={reportMachine}>
      {(actor) => (
        <>
          {children((subject) => actor.send({ type: 'report.open', subject }))}
          <ReportDialog actor={actor} />
        </>
      )}
    </ScreenActor>
  )
}
