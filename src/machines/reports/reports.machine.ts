import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { type Report, reportCalls, type ReportReview, type ReportsPage } from '../../api/reports.calls'
import { showToast } from '../toasts/notify'
import {
  canMoveReport,
  noteProblem,
  REPORT_UPDATE_FAILED,
  REPORT_UPDATED,
  type ReportStatus,
} from './reports.rules'

// The report review workflow: the Reports Management dialog (Settings -> Reports, View Reports; `?tab=reports` opens
// it at once). Tabs Pending, Reviewed, Resolved each read GET /reports?status=... afresh; a report is selected into the
// detail pane. Admins (`canReview`) review it there: an optional note, and only the moves the transition table allows
// (pending -> reviewed or dismissed; reviewed -> resolved or dismissed; resolved and dismissed are final). Resolving a
// post report may also delete the post (a checkbox), which asks a confirm first. One save at a time: 'Report updated
// successfully' and the report leaves the tab it no longer belongs to; or the server's words, else 'Failed to update
// report', and everything stays as it was. Members get the same dialog read-only, over the reports they filed.

export type ReviewMove = Exclude<ReportStatus, 'pending'>

export type ReportsEvent =
  | { type: 'reports.open' }
  | { type: 'reports.close' }
  | { type: 'reports.retry' }
  | { type: 'reports.tab'; status: ReportStatus }
  | { type: 'reports.more' }
  | { type: 'report.select'; id: string }
  | { type: 'note.input'; value: string }
  | { type: 'removePost.toggle' }
  | { type: 'report.move'; to: ReviewMove }
  | { type: 'removal.confirm' }
  | { type: 'removal.cancel' }

export interface ReportsInput {
  /** Opened by `?tab=reports`. */
  open: boolean
  /** Admins review; members only read their own reports. */
  canReview: boolean
}

export interface ReportsContext {
  open: boolean
  canReview: boolean
  tab: ReportStatus
  reports: ReadonlyArray<Report>
  nextCursor: string | null
  selectedId: string | null
  note: string
  removePost: boolean
  /** The move being confirmed or saved. */
  move: ReviewMove | null
}

const selected = (context: ReportsContext): Report | undefined => context.reports.find((r) => r.id === context.selectedId)

/** An admin, a selected report, a move the table allows from its status, a note within its limit. */
function mayMove(context: ReportsContext, to: ReviewMove): boolean {
  const report = selected(context)
  return context.canReview && report !== undefined && canMoveReport(report.status, to) && noteProblem(context.note) === null
}

export const reportsMachine = setup({
  types: {
    context: {} as ReportsContext,
    events: {} as ReportsEvent,
    input: {} as ReportsInput,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    loadReports: fromPromise<ReportsPage, { status: ReportStatus; cursor: string | null }>(({ input, signal }) =>
      run(reportCalls.getReports(input.status, input.cursor), signal),
    ),
    updateReport: fromPromise<Report, { id: string; review: ReportReview }>(({ input, signal }) =>
      run(reportCalls.updateReport(input.id, input.review), signal),
    ),
  },
  actions: {
    reset: assign({ tab: 'pending' as ReportStatus, selectedId: null, note: '', removePost: false, move: null }),
    showTab: assign((_, status: ReportStatus) => ({ tab: status, reports: [], nextCursor: null, selectedId: null })),
    showPage: assign((_, page: ReportsPage) => ({ reports: page.reports, nextCursor: page.nextCursor })),
    appendPage: assign(({ context }, page: ReportsPage) => ({
      reports: [...context.reports, ...page.reports.filter((r) => !context.reports.some((held) => held.id === r.id))],
      nextCursor: page.nextCursor,
    })),
    select: assign(({ context }, id: string) => ({
      selectedId: id,
      note: context.reports.find((r) => r.id === id)?.reviewNote ?? '',
      removePost: false,
    })),
    typeNote: assign((_, value: string) => ({ note: value })),
    toggleRemovePost: assign(({ context }) => ({ removePost: !context.removePost })),
    begin: assign((_, to: ReviewMove) => ({ move: to })),
    /** The saved report leaves a tab it no longer belongs to; otherwise it is shown as the server answered it. */
    apply: assign(({ context }, report: Report) => {
      const stays = report.status === context.tab
      return {
        move: null,
        removePost: false,
        reports: stays
          ? context.reports.map((r) => (r.id === report.id ? report : r))
          : context.reports.filter((r) => r.id !== report.id),
        selectedId: stays ? report.id : null,
        note: stays ? (report.reviewNote ?? '') : '',
      }
    }),
    settle: assign({ move: null }),
    notifyUpdated: ({ system }) => showToast(system, 'success', REPORT_UPDATED),
    notifyRefused: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, REPORT_UPDATE_FAILED)),
  },
  guards: {
    opensAtOnce: ({ context }) => context.open,
    nothingSaving: ({ context }) => context.move === null,
    hasMore: ({ context }) => context.nextCursor !== null,
    isListed: ({ context }, id: string) => context.reports.some((r) => r.id === id),
    /** The checkbox is there for an admin on a post report that can still be resolved. */
    mayRemovePost: ({ context }) => {
      const report = selected(context)
      return context.canReview && report?.type === 'post' && report.target.content !== null && canMoveReport(report.status, 'resolved')
    },
    mayMove: ({ context }, to: ReviewMove) => mayMove(context, to),
    removesPost: ({ context }, to: ReviewMove) => to === 'resolved' && context.removePost && mayMove(context, to),
  },
}).createMachine({
  id: 'reports',
  context: ({ input }) => ({
    open: input.open,
    canReview: input.canReview,
    tab: 'pending',
    reports: [],
    nextCursor: null,
    selectedId: null,
    note: '',
    removePost: false,
    move: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'opensAtOnce', target: 'open' }, { target: 'closed' }],
    },
    closed: {
      on: { 'reports.open': 'open' },
    },
    open: {
      entry: 'reset',
      initial: 'loading',
      on: {
        'reports.close': { guard: 'nothingSaving', target: 'closed' },
        'reports.tab': {
          guard: 'nothingSaving',
          target: '.loading',
          actions: { type: 'showTab', params: ({ event }) => event.status },
        },
      },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadReports',
            src: 'loadReports',
            input: ({ context }) => ({ status: context.tab, cursor: null }),
            onDone: { target: 'ready', actions: { type: 'showPage', params: ({ event }) => event.output } },
            onError: { target: 'failed' },
          },
        },
        failed: {
          on: { 'reports.retry': 'loading' },
        },
        ready: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'reports.more': { guard: 'hasMore', target: 'loadingMore' },
                'report.select': {
                  guard: { type: 'isListed', params: ({ event }) => event.id },
                  actions: { type: 'select', params: ({ event }) => event.id },
                },
                'note.input': { actions: { type: 'typeNote', params: ({ event }) => event.value } },
                'removePost.toggle': { guard: 'mayRemovePost', actions: 'toggleRemovePost' },
                'report.move': [
                  {
                    guard: { type: 'removesPost', params: ({ event }) => event.to },
                    target: 'confirmingRemoval',
                    actions: { type: 'begin', params: ({ event }) => event.to },
                  },
                  {
                    guard: { type: 'mayMove', params: ({ event }) => event.to },
                    target: 'saving',
                    actions: { type: 'begin', params: ({ event }) => event.to },
                  },
                ],
              },
            },
            confirmingRemoval: {
              on: {
                'removal.confirm': 'saving',
                'removal.cancel': { target: 'idle', actions: 'settle' },
              },
            },
            saving: {
              tags: ['busy'],
              invoke: {
                id: 'updateReport',
                src: 'updateReport',
                input: ({ context }) => ({
                  id: context.selectedId as string,
                  review: {
                    status: context.move as ReviewMove,
                    reviewNote: context.note,
                    removePost: context.move === 'resolved' && context.removePost,
                  },
                }),
                onDone: {
                  target: 'idle',
                  actions: ['notifyUpdated', { type: 'apply', params: ({ event }) => event.output }],
                },
                onError: {
                  target: 'idle',
                  actions: [{ type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error }, 'settle'],
                },
              },
            },
            loadingMore: {
              tags: ['busy'],
              invoke: {
                id: 'loadMore',
                src: 'loadReports',
                input: ({ context }) => ({ status: context.tab, cursor: context.nextCursor }),
                onDone: { target: 'idle', actions: { type: 'appendPage', params: ({ event }) => event.output } },
                onError: { target: 'idle' },
              },
            },
          },
        },
      },
    },
  },
})

export type ReportsMachine = typeof reportsMachine
export type ReportsRef = ActorRefFrom<ReportsMachine>
