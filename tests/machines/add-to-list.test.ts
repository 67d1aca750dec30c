import { expect } from 'vitest'
import { createActor } from 'xstate'
import { addToListMachine } from '../../src/machines/add-to-list/add-to-list.machine'
import { selectBusy, selectChoices, selectFailed, selectLoading, selectOpen } from '../../src/machines/add-to-list/add-to-list.selectors'
import { MEMBER_ADD_FAILED, MEMBER_ADDED, MEMBER_REMOVE_FAILED, MEMBER_REMOVED } from '../../src/machines/lists/lists.rules'
import { addToListModel, refused } from './models/add-to-list.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// A profile's "Add to list". After each step: whether the dialog is open, loading or failed; each list's checkbox;
// every toast; and what was asked of the server.

describeWalks('add to list', addToListModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = addToListMachine.provide({ actors: { loadLists: calls.invoked(), setMembership: calls.invoked() } })
  const actor = withToasts(createActor(machine, { input: { userId: 'u-ann' }, inspect })).start()
  expect(selectOpen(actor.getSnapshot())).toBe(false)

  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, { calls })) {
    const toasts = shownToasts().slice(toastsBefore)
    const started = calls.started.slice(startedBefore)
    const checked = Object.fromEntries(selectChoices(snapshot).map((c) => [c.list.id, c.checked]))
    const checkedBefore = Object.fromEntries(selectChoices(before).map((c) => [c.list.id, c.checked]))

    expect(selectOpen(snapshot)).toBe(!snapshot.matches('closed'))
    if (event.type === 'addToList.open' || event.type === 'addToList.retry') {
      // The viewer's own lists, each saying whether this member is on it.
      expect(started).toEqual([{ id: 'loadLists', input: { userId: 'u-ann', cursor: null } }])
      expect(selectLoading(snapshot)).toBe(true)
    }
    if (event.type === 'xstate.error.actor.loadLists') expect(selectFailed(snapshot)).toBe(true)
    if (event.type === 'addToList.close') expect(snapshot.context.lists).toEqual([])
    if (event.type === 'addToList.more') expect(started).toEqual([{ id: 'loadMore', input: { userId: 'u-ann', cursor: 'next' } }])
    if (event.type === 'addToList.toggle') {
      // The box flips at once while the call runs: a cleared box removes, a ticked one adds.
      expect(started).toEqual([{ id: 'setMembership', input: { listId: event.listId, userId: 'u-ann', add: !checkedBefore[event.listId] } }])
      expect(checked[event.listId]).toBe(!checkedBefore[event.listId])
      expect(selectBusy(snapshot)).toBe(true)
    }
    const pending = before.context.pending
    if (event.type === 'xstate.done.actor.setMembership' && pending) {
      expect(checked[pending.listId]).toBe(pending.add)
      expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: pending.add ? MEMBER_ADDED : MEMBER_REMOVED })])
    } else if (event.type === 'xstate.error.actor.setMembership' && pending) {
      // The box goes back to what the server holds, and the toast says why.
      expect(checked[pending.listId]).toBe(!pending.add)
      // The server's words when it gave some, else 'Failed to add member' / 'Failed to remove member'.
      expect(toasts).toEqual([expect.objectContaining({ type: 'error', message: refused.message })])
      expect([MEMBER_ADD_FAILED, MEMBER_REMOVE_FAILED]).toEqual(['Failed to add member', 'Failed to remove member'])
    } else {
      expect(toasts).toEqual([])
    }
  }
  actor.stop()
})

