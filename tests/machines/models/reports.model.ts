import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import type { Report, ReportsPage } from '../../../src/api/reports.calls'
import { reportsMachine, type ReportsInput } from '../../../src/machines/reports/reports.machine'
import { type MachineModel, valueAndContext, type Walk } from '../support/walks'

// The report review workflow's model (the Reports Management dialog): open and close it, switch tabs, load more,
// select a report, type a note (or one too long), tick "delete the post", move the report (every move, allowed or
// not), confirm or cancel the removal, and the server's answers. An admin reviews; a member only reads. Walked by
// tests/machines/reports.test.ts and printed by `npm run paths -- reports`.

const reporter = { id: 'u-gus', username: 'gus', displayName: 'Gus', avatar: null, verified: false }
const base = {
  reason: 'Spam',
  description: null,
  reporter,
  createdAt: '2026-01-01T00:00:00.000Z',
  reviewNote: null,
  reviewedAt: null,
}
export const pendingPost: Report = {
  ...base,
  id: 'p1',
  type: 'post',
  status: 'pending',
  target: { id: 'post-1', username: 'ann', displayName: 'Ann', content: 'buy followers' },
}
export const pendingUser: Report = {
  ...base,
  id: 'u1',
  type: 'user',
  status: 'pending',
  target: { id: 'user-1', username: 'bob', displayName: 'Bob', content: null },
}
export const olderPending: Report = { ...pendingUser, id: 'm1', target: { ...pendingUser.target, id: 'user-2' } }
export const reviewedPost: Report = {
  ...pendingPost,
  id: 'r1',
  status: 'reviewed',
  reviewNote: 'Looking',
  reviewedAt: '2026-01-02T00:00:00.000Z',
}

export const pendingPage: ReportsPage = { reports: [pendingPost, pendingUser], nextCursor: 'c2' }
export const morePage: ReportsPage = { reports: [olderPending], nextCursor: null }
export const reviewedPage: ReportsPage = { reports: [reviewedPost], nextCursor: null }

const reviewed = (r: Report, status: Report['status'], note: string | null): Report => ({
  ...r,
  status,
  reviewNote: note,
  reviewedAt: '2026-01-03T00:00:00.000Z',
})
export const answers: Report[] = [
  reviewed(pendingPost, 'reviewed', 'checked'),
  reviewed(pendingPost, 'dismissed', 'checked'),
  reviewed(pendingPost, 'reviewed', null),
  reviewed(pendingPost, 'dismissed', null),
  reviewed(reviewedPost, 'resolved', 'checked'),
  reviewed(reviewedPost, 'resolved', 'Looking'),
  reviewed(reviewedPost, 'dismissed', 'Looking'),
]
export const conflict = new Invalid({ message: 'A resolved report cannot be marked dismissed (resolved is final)', fromServer: true, status: 409, details: [] })
export const offline = new Network({ message: 'Unable to reach the server.' })

const events: AnyEventObject[] = [
  { type: 'reports.open' },
  { type: 'reports.close' },
  { type: 'reports.retry' },
  { type: 'reports.tab', status: 'reviewed' },
  { type: 'reports.tab', status: 'pending' },
  { type: 'reports.more' },
  { type: 'report.select', id: 'p1' },
  { type: 'report.select', id: 'r1' },
  { type: 'report.select', id: 'nope' },
  { type: 'note.input', value: 'checked' },
  { type: 'note.input', value: 'x'.repeat(1001) },
  { type: 'removePost.toggle' },
  { type: 'report.move', to: 'reviewed' },
  { type: 'report.move', to: 'resolved' },
  { type: 'report.move', to: 'dismissed' },
  { type: 'removal.confirm' },
  { type: 'removal.cancel' },
  { type: 'xstate.done.actor.loadReports', output: pendingPage },
  { type: 'xstate.done.actor.loadReports', output: reviewedPage },
  { type: 'xstate.error.actor.loadReports', error: offline },
  { type: 'xstate.done.actor.loadMore', output: morePage },
  { type: 'xstate.error.actor.loadMore', error: offline },
  ...answers.map((output) => ({ type: 'xstate.done.actor.updateReport', output })),
  { type: 'xstate.error.actor.updateReport', error: conflict },
  { type: 'xstate.error.actor.updateReport', error: offline },
]

/** Only the answers the running call could give: the page of the open tab, the report saved with its move and note. */
function offer(snapshot: AnyMachineSnapshot, event: AnyEventObject): boolean {
  const context = snapshot.context as { tab: string; selectedId: string | null; move: string | null; note: string; reports: Report[] }
  if (event.type === 'xstate.done.actor.loadReports') {
    return (event.output as ReportsPage) === (context.tab === 'pending' ? pendingPage : reviewedPage)
  }
  if (event.type === 'xstate.done.actor.updateReport') {
    const r = event.output as Report
    const note = context.note.trim() === '' ? (context.reports.find((x) => x.id === r.id)?.reviewNote ?? null) : context.note.trim()
    return r.id === context.selectedId && r.status === context.move && r.reviewNote === note
  }
  return true
}

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'note.input') {
    const value = event.value as string
    return `note.input(${value.length > 20 ? `${value.length} chars` : JSON.stringify(value)})`
  }
  if (event.type === 'reports.tab') return `reports.tab(${event.status as string})`
  if (event.type === 'report.select') return `report.select(${event.id as string})`
  if (event.type === 'report.move') return `report.move(${event.to as string})`
  if (event.type === 'xstate.done.actor.loadReports') return `loaded(${(event.output as ReportsPage) === pendingPage ? 'pending' : 'reviewed'})`
  if (event.type === 'xstate.done.actor.updateReport') {
    const r = event.output as Report
    return `saved(${r.id} ${r.status}${r.reviewNote ? ` "${r.reviewNote}"` : ''})`
  }
  if (event.type === 'xstate.error.actor.updateReport') return `refused(${event.error === conflict ? 'conflict' : 'offline'})`
  return undefined
}

type ReportsWalk = Walk & { input: ReportsInput }

const walk = (name: string, input: ReportsInput): ReportsWalk => ({
  name,
  input,
  options: () => ({
    input,
    events,
    label,
    offer,
    serializeState: valueAndContext,
    edgesOnly: 'reports page in, by filter, and change with each review: every order of pages, filters and reviews is its own state',
  }),
})

export const reportsModel = {
  name: 'reports',
  machine: reportsMachine,
  walks: [
    walk('an admin, opened by ?tab=reports', { open: true, canReview: true }),
    walk('an admin, opened by View Reports', { open: false, canReview: true }),
    walk('a member (read-only)', { open: true, canReview: false }),
  ],
} satisfies MachineModel<ReportsWalk>
