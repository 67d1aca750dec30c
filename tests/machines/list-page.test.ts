import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { listPageMachine } from '../../src/machines/list-page/list-page.machine'
import {
  selectBusy,
  selectCanSubscribe,
  selectCanUnsubscribe,
  selectError,
  selectFailed,
  selectIsOwner,
  selectList,
  selectLoading,
  selectMissing,
} from '../../src/machines/list-page/list-page.selectors'
import { LIST_LOAD_FAILED, SUBSCRIBE_FAILED, SUBSCRIBED, UNSUBSCRIBE_FAILED, UNSUBSCRIBED } from '../../src/machines/lists/lists.rules'
import { listPageModel, offline } from './models/list-page.model'
import { me } from './models/lists.model'
import { Calls } from './support/controlled-actors'
import { Coverage, perform, walkPaths } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The list page. After each step: which of loading, missing, failed or the list shows; the list's counts; whether
// Subscribe or Unsubscribe is offered (never on one's own list); every toast; and what was asked of the server.

const coverage = new Coverage(listPageMachine)

describe.each(listPageModel.walks.map((walk) => [walk.name, walk] as const))('list page: %s', (_name, walk) => {
  const paths = walkPaths(listPageModel, walk)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_title, path) => {
    const calls = new Calls()
    const machine = listPageMachine.provide({ actors: { loadList: calls.invoked(), subscription: calls.invoked() } })
    const actor = withToasts(createActor(machine, { input: { listId: 'l-1', viewerId: me }, inspect: coverage.inspector })).start()
    coverage.see(actor.getSnapshot())
    expect(calls.started).toEqual([{ id: 'loadList', input: { id: 'l-1' } }])

    for (const step of path.steps) {
      const before = actor.getSnapshot()
      const toastsBefore = shownToasts().length
      const startedBefore = calls.started.length
      await perform(actor, calls, step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context).toEqual(step.state.context)
      const event = step.event
      const toasts = shownToasts().slice(toastsBefore)
      const started = calls.started.slice(startedBefore)

      // Exactly one of the page's states shows.
      expect([selectLoading(snapshot), selectMissing(snapshot), selectFailed(snapshot), snapshot.matches('ready')].filter(Boolean)).toHaveLength(1)
      const list = selectList(snapshot)
      if (list && selectIsOwner(snapshot)) {
        expect(selectCanSubscribe(snapshot) || selectCanUnsubscribe(snapshot), 'never on one own list').toBe(false)
      }
      if (list && !selectIsOwner(snapshot) && snapshot.matches({ ready: 'idle' })) {
        expect(selectCanSubscribe(snapshot)).toBe(!list.subscribed)
        expect(selectCanUnsubscribe(snapshot)).toBe(list.subscribed)
      }
      if (event.type === 'listPage.retry') expect(started).toEqual([{ id: 'loadList', input: { id: 'l-1' } }])
      if (event.type === 'xstate.error.actor.loadList') {
        if (event.error === offline) expect(selectError(snapshot)).toBe(offline.message)
        else expect(selectMissing(snapshot)).toBe(true)
        expect(LIST_LOAD_FAILED).toBe('Could not load this list.')
      }
      if (event.type === 'listPage.subscribe' || event.type === 'listPage.unsubscribe') {
        if (selectIsOwner(before)) expect(started).toEqual([])
        else {
          expect(started).toEqual([{ id: event.type === 'listPage.subscribe' ? 'subscribe' : 'unsubscribe', input: { id: 'l-1', on: event.type === 'listPage.subscribe' } }])
          expect(selectBusy(snapshot)).toBe(true)
        }
      }
      if (event.type === 'xstate.done.actor.subscribe' || event.type === 'xstate.done.actor.unsubscribe') {
        const output = event.output as { subscribed: boolean; subscriberCount: number }
        expect(list).toMatchObject(output)
        expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: output.subscribed ? SUBSCRIBED : UNSUBSCRIBED })])
      } else if (event.type === 'xstate.error.actor.subscribe' || event.type === 'xstate.error.actor.unsubscribe') {
        expect(toasts).toEqual([
          expect.objectContaining({ type: 'error', message: event.type === 'xstate.error.actor.subscribe' ? SUBSCRIBE_FAILED : UNSUBSCRIBE_FAILED }),
        ])
        expect(list).toEqual(before.context.list)
      } else {
        expect(toasts).toEqual([])
      }
    }
    actor.stop()
  })
})

describe('list page', () => {
  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })
})
