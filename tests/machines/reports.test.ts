import { expect } from 'vitest'
import { createActor } from 'xstate'
import { REPORT_MOVES } from '../../src/api/contract/reports'
import type { Report } from '../../src/api/reports.calls'
import { reportsMachine, type ReportsEvent } from '../../src/machines/reports/reports.machine'
import { noteProblem, REPORT_UPDATE_FAILED, REPORT_UPDATED } from '../../src/machines/reports/reports.rules'
import {
  selectCanRemovePost,
  selectConfirmingRemoval,
  selectFailed,
  selectLoading,
  selectMoves,
  selectOpen,
  selectReports,
  selectSaving,
  selectSelected,
  selectTab,
} from '../../src/machines/reports/reports.selectors'
import { conflict, reportsModel } from './models/reports.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The report review workflow. After each step: whether the dialog shows, its tab, spinner or retry, the list, the
// selected report, the moves offered (exactly the transition table's, and none for a member), the delete-post
// checkbox, the removal confirm, every toast, and exactly what was sent to the server.

describeWalks('reviewing reports', reportsModel, async ({ walk, inspect, replay }) => {
  const calls = new Calls()
  const machine = reportsMachine.provide({ actors: { loadReports: calls.invoked(), updateReport: calls.actor('updateReport') } })
  const actor = withToasts(createActor(machine, { input: walk.input, inspect })).start()
  expect(selectOpen(actor.getSnapshot())).toBe(walk.input.open)
  expect(calls.started).toEqual(walk.input.open ? [{ id: 'loadReports', input: { status: 'pending', cursor: null } }] : [])

  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, { calls })) {
    const started = calls.started.slice(startedBefore)
    const toasts = shownToasts().slice(toastsBefore).map((t) => [t.type, t.message])
    const selected = selectSelected(snapshot)

    expect(selectLoading(snapshot)).toBe(snapshot.matches({ open: 'loading' }))
    expect(selectFailed(snapshot)).toBe(snapshot.matches({ open: 'failed' }))
    // The moves offered are the table's from the selected report's status, for admins only.
    expect(selectMoves(snapshot)).toEqual(walk.input.canReview && selected ? REPORT_MOVES[selected.status] : [])
    // The checkbox: an admin, a post report that can still be resolved (or the box already ticked).
    if (!walk.input.canReview) expect(selectCanRemovePost(snapshot)).toBe(false)
    if (selected?.type === 'user') expect(selectCanRemovePost(snapshot)).toBe(false)

    if (event.type === 'reports.open' || (event.type === 'reports.tab' && before.can(event as ReportsEvent)) || event.type === 'reports.retry') {
      expect(selectLoading(snapshot)).toBe(true)
      expect(selectSelected(snapshot)).toBeNull()
      expect(started).toEqual([{ id: 'loadReports', input: { status: selectTab(snapshot), cursor: null } }])
    }
    if (event.type === 'reports.close') {
      // Never while a save is on its way.
      expect(selectOpen(snapshot)).toBe(before.context.move !== null)
    }
    if (event.type === 'report.move') {
      const from = before.context.reports.find((r: Report) => r.id === before.context.selectedId)
      const allowed =
        before.matches({ open: { ready: 'idle' } }) &&
        walk.input.canReview &&
        from !== undefined &&
        REPORT_MOVES[from.status].includes(event.to) &&
        noteProblem(before.context.note) === null
      if (!allowed) {
        expect(snapshot).toBe(before)
        expect(started).toEqual([])
      } else if (event.to === 'resolved' && before.context.removePost) {
        // Deleting the post asks first.
        expect(selectConfirmingRemoval(snapshot)).toBe(true)
        expect(started).toEqual([])
      } else {
        expect(selectSaving(snapshot)).toBe(true)
        expect(started).toEqual([
          { id: 'updateReport', input: { id: from!.id, review: { status: event.to, reviewNote: before.context.note, removePost: false } } },
        ])
      }
    }
    if (event.type === 'removal.confirm') {
      expect(started).toEqual([
        { id: 'updateReport', input: { id: before.context.selectedId, review: { status: 'resolved', reviewNote: before.context.note, removePost: true } } },
      ])
    }
    if (event.type === 'xstate.done.actor.updateReport') {
      expect(toasts).toEqual([['success', REPORT_UPDATED]])
      const saved = event.output as Report
      // It leaves the tab it no longer belongs to.
      expect(selectReports(snapshot).some((r) => r.id === saved.id)).toBe(saved.status === snapshot.context.tab)
    } else if (event.type === 'xstate.error.actor.updateReport') {
      expect(toasts).toEqual([['error', event.error === conflict ? conflict.message : REPORT_UPDATE_FAILED]])
      expect(selectReports(snapshot)).toEqual(before.context.reports)
      expect(snapshot.context.selectedId).toBe(before.context.selectedId)
    } else {
      expect(toasts).toEqual([])
    }
  }
  actor.stop()
})

