import type { AnyEventObject } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import type { Report, ReportSubject } from '../../../src/api/reports.calls'
import { reportMachine, type ReportContext } from '../../../src/machines/report/report.machine'
import { type MachineModel, valueAndContext, type Walk } from '../support/walks'

// Report creation's model: open the dialog about a post, a member or a message, choose a reason (or not), type a
// description (or one too long), cancel or submit, and the server's answer. Walked by tests/machines/report.test.ts
// and printed by `npm run paths -- report`.

export const postSubject: ReportSubject = { kind: 'post', id: '0190a6b2-0000-7000-8000-0000000000a1' }
export const userSubject: ReportSubject = { kind: 'user', id: '0190a6b2-0000-7000-8000-0000000000b2' }
export const messageSubject: ReportSubject = {
  kind: 'message',
  id: '0190a6b2-0000-7000-8000-0000000000c3',
  messageText: 'you will regret this',
}

export const filedReport: Report = {
  id: 'report-1',
  type: 'post',
  status: 'pending',
  reason: 'Spam',
  description: null,
  reporter: { id: 'me', username: 'me', displayName: 'Me', avatar: null, verified: false },
  target: { id: postSubject.id, username: 'ann', displayName: 'Ann', content: 'buy followers' },
  createdAt: '2026-01-01T00:00:00.000Z',
  reviewNote: null,
  reviewedAt: null,
}
export const duplicate = new Invalid({
  message: 'You already reported this; it is awaiting review',
  fromServer: true,
  status: 409,
  details: [],
})
export const offline = new Network({ message: 'Unable to reach the server.' })

const events = (subject: ReportSubject): AnyEventObject[] => [
  { type: 'report.open', subject },
  { type: 'report.reason', reason: 'Spam' },
  { type: 'report.description', value: 'obvious bot' },
  { type: 'report.description', value: 'x'.repeat(1001) },
  { type: 'report.submit' },
  { type: 'report.cancel' },
  { type: 'xstate.done.actor.fileReport', output: filedReport },
  { type: 'xstate.error.actor.fileReport', error: duplicate },
  { type: 'xstate.error.actor.fileReport', error: offline },
]

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'report.description') {
    const value = event.value as string
    return `report.description(${value.length > 20 ? `${value.length} chars` : JSON.stringify(value)})`
  }
  if (event.type === 'report.open') return `report.open(${(event.subject as ReportSubject).kind})`
  if (event.type === 'xstate.error.actor.fileReport') return `refused(${event.error === duplicate ? 'already reported' : 'offline'})`
  return undefined
}

/** The context as the model compares it: the Idempotency-Key is random, so only whether there is one counts. */
export const modelContext = (context: ReportContext) => ({ ...context, idempotencyKey: context.idempotencyKey !== null })

const walk = (name: string, subject: ReportSubject): Walk => ({
  name,
  options: () => ({
    events: events(subject),
    label,
    serializeState: (s) => {
      const snapshot = s as unknown as { value: unknown; context: ReportContext }
      return valueAndContext({ value: snapshot.value, context: modelContext(snapshot.context) })
    },
    edgesOnly: 'the reason picked, the details typed and each answer are context: every order of them is its own state',
  }),
})

export const reportModel = {
  name: 'report',
  machine: reportMachine,
  walks: [walk('a post', postSubject), walk('a member', userSubject), walk('a message', messageSubject)],
} satisfies MachineModel
