import { expect, it } from 'vitest'
import { createActor } from 'xstate'
import { KEYWORD_MUTED, muteListsMachine, mutesMachine, type MuteListsRef } from '../../src/machines/mutes/mutes.machine'
import { selectLists, selectOpen, selectTab } from '../../src/machines/mutes/mutes.selectors'
import { mutesModel, muteListsModel } from './models/mutes.model'
import { Calls } from './support/controlled-actors'
import { describeWalks, settle, type Coverage } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The Mute Management dialog around its lists (the lists themselves: tests/machines/filter-lists.test.ts). What the
// member sees after each step: whether the dialog is open and on which tab, and that each opening reads the mutes
// afresh with empty forms. The walks are the model's (./models/mutes.model.ts).

function start(open: boolean, calls: Calls, inspect: Coverage['inspector']) {
  const lists = muteListsMachine.provide({ actors: { load: calls.invoked(), change: calls.actor('change') } })
  const machine = mutesMachine.provide({ actors: { lists } })
  return withToasts(createActor(machine, { input: { open }, inspect })).start()
}

describeWalks('mute management', mutesModel, async ({ walk, inspect, replay }) => {
  const calls = new Calls()
  const actor = start(walk.input.open, calls, inspect)
  // `?tab=mutes` opens the dialog and reads the mutes at once; otherwise nothing shows or loads until Manage Mutes.
  expect(selectOpen(actor.getSnapshot())).toBe(walk.input.open)
  expect(calls.started).toEqual(walk.input.open ? [{ id: 'load', input: { cursor: null } }] : [])

  for await (const { event, before, snapshot, startedBefore } of replay(actor, { calls, context: false })) {
    const open = selectOpen(snapshot)
    const lists = selectLists(snapshot)
    // An open dialog holds its lists; a closed one holds none.
    expect(lists !== null).toBe(open)
    if (event.type === 'mutes.open') {
      expect(selectTab(snapshot), 'each opening starts on Users').toBe('users')
      expect(lists?.getSnapshot().context.drafts).toEqual({ keywords: '', domains: '' })
      expect(calls.started.slice(startedBefore), 'each opening reads the mutes afresh').toEqual([{ id: 'load', input: { cursor: null } }])
    }
    if (event.type === 'mutes.close') expect(open).toBe(false)
    if (event.type === 'mutes.tab') expect(selectTab(snapshot)).toBe(open ? event.tab : before.context.tab)
  }
  actor.stop()
}, {
  alsoCovered: (coverage) => {
    it('stays open while a change is being saved, and closes once it is answered', async () => {
      const calls = new Calls()
      const actor = start(true, calls, coverage.inspector)
      const lists = selectLists(actor.getSnapshot()) as MuteListsRef
      calls.resolve('load', muteListsModel.fixtures.firstPage)
      await settle()
      lists.send({ type: 'filter.input', list: 'keywords', value: 'big spoilers' })
      lists.send({ type: 'filter.add', list: 'keywords' })
      await settle()
      expect(lists.getSnapshot().matches({ ready: 'saving' })).toBe(true)

      actor.send({ type: 'mutes.close' })
      expect(selectOpen(actor.getSnapshot()), 'Escape waits for the answer').toBe(true)
      calls.resolve('change', 'big spoilers')
      await settle()
      expect(shownToasts().at(-1)).toMatchObject({ type: 'success', message: KEYWORD_MUTED })
      actor.send({ type: 'mutes.close' })
      expect(selectOpen(actor.getSnapshot())).toBe(false)
      expect(lists.getSnapshot().status, 'the lists end with the dialog').toBe('stopped')
      actor.stop()
    })
  },
})
