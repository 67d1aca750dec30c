import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { reportMachine, type ReportSubmission } from '../../src/machines/report/report.machine'
import {
  selectCounter,
  selectDescription,
  selectDialogOpen,
  selectProblem,
  selectReason,
  selectSubmitting,
} from '../../src/machines/report/report.selectors'
import {
  DESCRIPTION_TOO_LONG,
  REASON_REQUIRED,
  REPORT_FAILED,
  REPORT_SENT,
  reportFormProblem,
} from '../../src/machines/reports/reports.rules'
import { duplicate, modelContext, offline, reportModel } from './models/report.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, settle } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// Report creation (the report dialog). After each step: whether the dialog shows, what is chosen and typed, the
// counter, the message under the form, whether it is sending, every toast, and what was sent to the server.

describeWalks('reporting', reportModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = reportMachine.provide({ actors: { fileReport: calls.actor('fileReport') } })
  const actor = withToasts(createActor(machine, { inspect })).start()
  expect(selectDialogOpen(actor.getSnapshot())).toBe(false)

  /** Every Idempotency-Key a submission of this walk has used: a new submission must not reuse one. */
  const usedKeys = new Set<string>()
  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, { calls, context: (s) => modelContext(s.context) })) {
    const key = snapshot.context.idempotencyKey
    const toasts = shownToasts().slice(toastsBefore)
    expect(selectDialogOpen(snapshot)).toBe(snapshot.matches('editing') || snapshot.matches('submitting'))
    expect(selectSubmitting(snapshot)).toBe(snapshot.matches('submitting'))
    const counter = selectCounter(snapshot)
    expect(counter).toEqual({ used: [...snapshot.context.description].length, max: 1000, over: [...snapshot.context.description].length > 1000 })

    if (event.type === 'report.open') {
      // Each opening starts empty.
      expect(selectReason(snapshot)).toBe('')
      expect(selectDescription(snapshot)).toBe('')
      expect(selectProblem(snapshot)).toBeNull()
    }
    if (event.type === 'report.submit' && before.matches('editing')) {
      const problem = reportFormProblem(before.context)
      if (problem === null) {
        expect(snapshot.matches('submitting')).toBe(true)
        expect(calls.started.slice(startedBefore)).toEqual([
          {
            id: 'fileReport',
            input: {
              subject: before.context.subject,
              filing: { reason: before.context.reason, description: before.context.description },
              idempotencyKey: key,
            },
          },
        ])
        // One key per submission: Report pressed again after a failure, form unchanged, sends the same key.
        if (before.context.idempotencyKey !== null) expect(key).toBe(before.context.idempotencyKey)
        else {
          expect(key).toMatch(/^[0-9a-f-]{36}$/)
          expect(usedKeys.has(key ?? '')).toBe(false)
          usedKeys.add(key ?? '')
        }
      } else {
        // Nothing is sent; the message says what to fix.
        expect(snapshot.matches('editing')).toBe(true)
        expect(calls.started.length).toBe(startedBefore)
        expect(selectProblem(snapshot)).toBe(before.context.reason === '' ? REASON_REQUIRED : DESCRIPTION_TOO_LONG)
      }
    }
    if (event.type === 'report.reason' || event.type === 'report.description') expect(selectProblem(snapshot)).toBeNull()
    // A change to the form, or another report, is a new submission.
    if (before.matches('editing') && ['report.reason', 'report.description'].includes(event.type)) expect(key).toBeNull()
    if (event.type === 'report.open') expect(key).toBeNull()
    if (event.type === 'xstate.error.actor.fileReport') expect(key).toBe(before.context.idempotencyKey)
    if (event.type === 'xstate.done.actor.fileReport') {
      expect(selectDialogOpen(snapshot)).toBe(false)
      expect(toasts.map((t) => [t.type, t.message])).toEqual([['success', REPORT_SENT]])
    } else if (event.type === 'xstate.error.actor.fileReport') {
      // The dialog stays with what was typed; the toast says why.
      expect(snapshot.matches('editing')).toBe(true)
      expect(snapshot.context.reason).toBe(before.context.reason)
      expect(snapshot.context.description).toBe(before.context.description)
      expect(toasts.map((t) => [t.type, t.message])).toEqual([['error', event.error === duplicate ? duplicate.message : REPORT_FAILED]])
    } else {
      expect(toasts).toEqual([])
    }
    if (event.type === 'report.cancel') expect(selectDialogOpen(snapshot)).toBe(false)
  }
  actor.stop()
})

describe('report creation', () => {
  it('cannot be cancelled while it sends', async () => {
    const calls = new Calls()
    const actor = withToasts(createActor(reportMachine.provide({ actors: { fileReport: calls.actor('fileReport') } }))).start()
    actor.send({ type: 'report.open', subject: { kind: 'user', id: 'u1' } })
    actor.send({ type: 'report.reason', reason: 'Hate' })
    actor.send({ type: 'report.submit' })
    expect(actor.getSnapshot().can({ type: 'report.cancel' })).toBe(false)
    actor.send({ type: 'report.cancel' })
    expect(selectDialogOpen(actor.getSnapshot())).toBe(true)
  })

  it('sends a report retried after a lost answer with the same Idempotency-Key; a changed form gets a new one', async () => {
    const calls = new Calls()
    const actor = withToasts(createActor(reportMachine.provide({ actors: { fileReport: calls.actor('fileReport') } }))).start()
    const sentKey = () => (calls.started.at(-1)?.input as ReportSubmission).idempotencyKey
    actor.send({ type: 'report.open', subject: { kind: 'user', id: 'u1' } })
    actor.send({ type: 'report.reason', reason: 'Hate' })
    actor.send({ type: 'report.submit' })
    const first = sentKey()
    calls.reject('fileReport', offline)
    await settle()
    actor.send({ type: 'report.submit' })
    expect(sentKey()).toBe(first)
    calls.reject('fileReport', offline)
    await settle()
    actor.send({ type: 'report.description', value: 'Again and again' })
    actor.send({ type: 'report.submit' })
    expect(sentKey()).not.toBe(first)
    actor.stop()
  })
})

