import { expect } from 'vitest'
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
  selectMembers,
  selectMembersError,
  selectMembersHasMore,
  selectMembersLoadingMore,
  selectMissing,
} from '../../src/machines/list-page/list-page.selectors'
import { MORE_FAILED } from '../../src/machines/lib/paging'
import { LIST_LOAD_FAILED, SUBSCRIBE_FAILED, SUBSCRIBED, UNSUBSCRIBE_FAILED, UNSUBSCRIBED } from '../../src/machines/lists/lists.rules'
import { listPageModel, offline } from './models/list-page.model'
import { ann, bob, me } from './models/lists.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The list page. After each step: which of loading, missing, failed or the list shows; the list's counts; whether
// Subscribe or Unsubscribe is offered (never on one's own list); the Members dialog's rows and Load more; every toast;
// and what was asked of the server.

describeWalks('list page', listPageModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = listPageMachine.provide({ actors: { loadList: calls.invoked(), loadMembers: calls.invoked(), subscription: calls.invoked() } })
  const actor = withToasts(createActor(machine, { input: { listId: 'l-1', viewerId: me }, inspect })).start()
  expect(calls.started).toEqual([{ id: 'loadList', input: { id: 'l-1' } }])

  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, { calls })) {
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
    // Load more of the members shows exactly while the server gave a next cursor.
    expect(selectMembersHasMore(snapshot)).toBe(snapshot.context.membersCursor !== null)
    if (event.type === 'xstate.done.actor.loadList') expect(selectMembersError(snapshot)).toBeNull()
    if (event.type === 'listPage.moreMembers') {
      if (before.context.membersCursor && before.matches({ ready: 'idle' })) {
        expect(started).toEqual([{ id: 'loadMembers', input: { id: 'l-1', cursor: 'm-next' } }])
        expect(selectMembersLoadingMore(snapshot)).toBe(true)
      } else expect(started).toEqual([])
    }
    if (event.type === 'xstate.done.actor.loadMembers') {
      // Appended, one row per id; the last page ends Load more.
      expect(selectMembers(snapshot).map((m) => m.id)).toEqual([ann.id, bob.id])
      expect(selectMembersHasMore(snapshot)).toBe(false)
      expect(selectMembersError(snapshot)).toBeNull()
    }
    if (event.type === 'xstate.error.actor.loadMembers') {
      // The rows stay and it says so; Load more tries the same page again.
      expect(selectMembers(snapshot)).toEqual(before.context.members)
      expect(selectMembersError(snapshot)).toBe(MORE_FAILED)
      expect(selectMembersHasMore(snapshot)).toBe(true)
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

