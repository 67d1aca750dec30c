import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { newIdempotencyKey } from '../../api/idempotency'
import { type Report, reportCalls, type ReportFiling, type ReportSubject } from '../../api/reports.calls'
import { showToast } from '../toasts/notify'
import { REPORT_FAILED, REPORT_SENT, reportFormProblem, type ReportReason } from '../reports/reports.rules'

// Report a post (its card's menu), a member (their profile) or a message (its menu in the conversation): the report
// dialog asks a reason from the list and an optional description (at most 1,000 characters, counted as typed). Report
// checks the form first: a missing reason or a long description shows its message under the form and sends nothing.
// Then POST /reports/<kind>; a message report carries the text this browser decrypted (the server cannot read it).
// Sent: the dialog closes with a thank-you toast. Refused: the server's words (already reported, gone), else 'Failed
// to submit report'; the dialog stays with what was typed. Cancel (or Escape) closes it except while it sends.
// Each submission carries an Idempotency-Key made when Report is pressed: pressing it again after a failure with the
// form unchanged sends the same key (a report whose answer was lost is answered, not refused as already filed); a
// change to the reason or details makes a new submission.

export type ReportEvent =
  | { type: 'report.open'; subject: ReportSubject }
  | { type: 'report.reason'; reason: ReportReason }
  | { type: 'report.description'; value: string }
  | { type: 'report.submit' }
  | { type: 'report.cancel' }

export interface ReportContext {
  subject: ReportSubject | null
  reason: ReportReason | ''
  description: string
  /** Shown once Report was pressed with a form that breaks a rule; cleared by the next change. */
  problem: string | null
  /** The submission's Idempotency-Key: made on Report, kept while the unchanged form is retried, dropped by a change. */
  idempotencyKey: string | null
}

/** What the fileReport actor sends: the subject, the form, and the submission's key. */
export interface ReportSubmission {
  subject: ReportSubject
  filing: ReportFiling
  idempotencyKey: string | null
}

export const reportMachine = setup({
  types: {
    context: {} as ReportContext,
    events: {} as ReportEvent,
    tags: {} as 'busy',
  },
  actors: {
    fileReport: fromPromise<Report, ReportSubmission>(({ input, signal }) =>
      run(reportCalls.fileReport(input.subject, input.filing, input.idempotencyKey), signal),
    ),
  },
  actions: {
    start: assign((_, subject: ReportSubject) => ({ subject, reason: '' as const, description: '', problem: null, idempotencyKey: null })),
    chooseReason: assign((_, reason: ReportReason) => ({ reason, problem: null, idempotencyKey: null })),
    typeDescription: assign((_, value: string) => ({ description: value, problem: null, idempotencyKey: null })),
    /** A new submission gets a key; a retry of the same one keeps its key. */
    keySubmission: assign(({ context }) => ({ idempotencyKey: context.idempotencyKey ?? newIdempotencyKey() })),
    showProblem: assign(({ context }) => ({ problem: reportFormProblem(context) })),
    notifySent: ({ system }) => showToast(system, 'success', REPORT_SENT),
    notifyRefused: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, REPORT_FAILED)),
  },
  guards: {
    formIsValid: ({ context }) => reportFormProblem(context) === null,
  },
}).createMachine({
  id: 'report',
  context: { subject: null, reason: '', description: '', problem: null, idempotencyKey: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'report.open': { target: 'editing', actions: { type: 'start', params: ({ event }) => event.subject } },
      },
    },
    editing: {
      on: {
        'report.reason': { actions: { type: 'chooseReason', params: ({ event }) => event.reason } },
        'report.description': { actions: { type: 'typeDescription', params: ({ event }) => event.value } },
        'report.submit': [{ guard: 'formIsValid', target: 'submitting', actions: 'keySubmission' }, { actions: 'showProblem' }],
        'report.cancel': 'idle',
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'fileReport',
        src: 'fileReport',
        input: ({ context }): ReportSubmission => ({
          subject: context.subject as ReportSubject,
          filing: { reason: context.reason as ReportReason, description: context.description },
          idempotencyKey: context.idempotencyKey,
        }),
        onDone: { target: 'idle', actions: 'notifySent' },
        onError: {
          target: 'editing',
          actions: { type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error },
        },
      },
    },
  },
})

export type ReportMachine = typeof reportMachine
export type ReportRef = ActorRefFrom<ReportMachine>
