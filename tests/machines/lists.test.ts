import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { listsMachine, REFUSED, SAVED } from '../../src/machines/lists/lists.machine'
import { MORE_FAILED } from '../../src/machines/lib/paging'
import { DELETE_CONFIRM, MEMBERS_LOAD_FAILED, SEARCH_DEBOUNCE_MS } from '../../src/machines/lists/lists.rules'
import {
  selectBusy,
  selectDeleting,
  selectEditing,
  selectFailed,
  selectLoading,
  selectMembers,
  selectMembersError,
  selectMembersFailed,
  selectMembersHasMore,
  selectOpenList,
  selectOwnLists,
  selectResults,
  selectSearchFailed,
  selectSearching,
  selectSubscribedLists,
} from '../../src/machines/lists/lists.selectors'
import { ann, bob, cal, listsModel, me, nameTaken } from './models/lists.model'
import { formStandIn } from './models/named-group-form.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The Manage Lists dialog. After each step: the spinner or Try again, the lists on screen (own and subscribed), the
// form child (what it starts from, what it is told when a save is refused), the delete confirmation, the members panel (its pages) and its search,
// every toast, and what was asked of the server. The walks are the model's.

describeWalks('manage lists', listsModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = listsMachine.provide({
    actors: {
      loadLists: calls.invoked(),
      loadMembers: calls.invoked(),
      wait: calls.invoked(),
      searchUsers: calls.invoked(),
      change: calls.invoked(),
      form: formStandIn as never,
    },
  })
  const actor = withToasts(createActor(machine, { input: { viewerId: me }, inspect })).start()
  // Opening the dialog reads the first page of lists, behind a spinner.
  expect(selectLoading(actor.getSnapshot())).toBe(true)
  expect(calls.started).toEqual([{ id: 'loadLists', input: { cursor: null } }])

  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, { calls })) {
    const { context } = snapshot
    const toasts = shownToasts().slice(toastsBefore)
    const started = calls.started.slice(startedBefore)

    expect(selectFailed(snapshot)).toBe(snapshot.matches('failed'))
    const form = snapshot.children.form?.getSnapshot() as { context: { input: unknown; heard: unknown[] } } | undefined
    expect(form !== undefined, 'the form child runs exactly while the form is open').toBe(selectEditing(snapshot))
    // Own lists and subscriptions are told apart by their owner.
    expect(selectOwnLists(snapshot).every((l) => l.owner.id === me)).toBe(true)
    expect(selectSubscribedLists(snapshot).every((l) => l.owner.id !== me)).toBe(true)

    if (event.type === 'lists.retry') expect(started).toEqual([{ id: 'loadLists', input: { cursor: null } }])
    if (event.type === 'lists.more') expect(started).toEqual([{ id: 'loadMore', input: { cursor: 'next' } }])
    if (event.type === 'xstate.done.actor.loadMore') {
      // One row per id, in order.
      expect(context.lists.map((l) => l.id)).toEqual(['l-birds', 'l-theirs', 'l-later'])
      expect(context.cursor).toBeNull()
    }
    if (event.type === 'list.new') {
      // A blank form.
      expect(context.editingId).toBeNull()
      expect(form?.context.input).toEqual({})
    }
    if (event.type === 'list.edit') {
      // Only one's own list is edited; the form fills from it.
      const held = before.context.lists.find((l) => l.id === 'l-birds')
      if (event.id === 'l-birds') {
        expect(context.editingId).toBe('l-birds')
        expect(form?.context.input).toEqual({ editing: { name: held?.name, description: held?.description, isPrivate: held?.isPrivate } })
      } else expect(selectEditing(snapshot)).toBe(selectEditing(before))
    }
    if (event.type === 'form.submitted') {
      // What the form sent (checked and trimmed there), in exactly one call.
      expect(started).toHaveLength(1)
      expect(context.change).toEqual(
        before.context.editingId ? { kind: 'update', id: before.context.editingId, fields: event.fields } : { kind: 'create', fields: event.fields },
      )
      expect(selectBusy(snapshot)).toBe(true)
    }
    if (event.type === 'form.cancelled') {
      expect(selectEditing(snapshot)).toBe(false)
      expect(started).toEqual([])
    }
    if (event.type === 'list.delete') {
      // Asks first, for one's own list only.
      if (event.id === 'l-birds') expect(selectDeleting(snapshot)?.id).toBe('l-birds')
      else expect(selectDeleting(snapshot)).toBe(selectDeleting(before))
      expect(started).toEqual([])
      expect(DELETE_CONFIRM).toBe('Are you sure you want to delete this list?')
    }
    if (event.type === 'delete.cancel') expect(context.lists).toEqual(before.context.lists)
    if (event.type === 'delete.confirm') expect(started).toEqual([{ id: 'change', input: { kind: 'delete', id: 'l-birds' } }])
    if (event.type === 'list.members' && event.id === 'l-birds') {
      expect(selectOpenList(snapshot)?.id).toBe('l-birds')
      // The first page of members, from the top.
      expect(started).toEqual([{ id: 'loadMembers', input: { id: 'l-birds', cursor: null } }])
    }
    if (event.type === 'members.retry') expect(started).toEqual([{ id: 'loadMembers', input: { id: 'l-birds', cursor: null } }])
    if (event.type === 'xstate.done.actor.loadMembers') {
      expect(selectMembers(snapshot).map((m) => m.id)).toEqual([ann.id])
      // Load more is offered exactly while the server gave a next cursor.
      expect(selectMembersHasMore(snapshot)).toBe((event.output as { nextCursor: string | null }).nextCursor !== null)
      expect(selectMembersError(snapshot)).toBeNull()
    }
    if (event.type === 'members.more') {
      if (before.context.membersCursor) expect(started).toEqual([{ id: 'loadMoreMembers', input: { id: 'l-birds', cursor: 'm-next' } }])
      else expect(started, 'no more pages: nothing is asked').toEqual([])
    }
    if (event.type === 'xstate.done.actor.loadMoreMembers') {
      // Appended, one row per id; the last page ends Load more; the count follows the server.
      expect(selectMembers(snapshot).map((m) => m.id)).toEqual([ann.id, cal.id])
      expect(selectMembersHasMore(snapshot)).toBe(false)
      expect(selectOpenList(snapshot)?.memberCount).toBe(3)
    }
    if (event.type === 'xstate.error.actor.loadMoreMembers') {
      // The rows stay; Load more tries the same page again.
      expect(context.members).toEqual(before.context.members)
      expect(selectMembersError(snapshot)).toBe(MORE_FAILED)
      expect(selectMembersHasMore(snapshot)).toBe(true)
    }
    if (event.type === 'members.query' && !before.matches({ ready: { members: 'browsing' } })) {
      // Typed before the members show, or while a change saves: the text stays, nothing is asked yet.
      expect(context.query).toBe(event.value)
      expect(started).toEqual([])
      expect(context.results).toEqual([])
    } else if (event.type === 'members.query') {
      // From 2 characters the search waits for the member to stop typing; shorter asks nothing.
      if (event.value.trim().length >= 2) {
        expect(started).toEqual([{ id: 'wait', input: undefined }])
        expect(selectSearching(snapshot)).toBe(true)
      } else {
        expect(started).toEqual([])
        expect(context.results).toEqual([])
      }
    }
    const showsMembers = ['xstate.done.actor.loadMembers', 'xstate.done.actor.loadMoreMembers', 'xstate.done.actor.changeMember', 'xstate.error.actor.changeMember']
    if (showsMembers.includes(event.type) && before.context.queryPending && before.context.query.trim().length >= 2) {
      // What was typed meanwhile is searched for as soon as the members show.
      expect(started).toEqual([{ id: 'wait', input: undefined }])
      expect(selectSearching(snapshot)).toBe(true)
      expect(context.query).toBe(before.context.query)
    }
    if (event.type === 'xstate.done.actor.wait') expect(started).toEqual([{ id: 'searchUsers', input: { query: context.query } }])
    if (event.type === 'xstate.done.actor.searchUsers') {
      // Members on the list already are offered as added, not to add.
      expect(selectResults(snapshot).map((r) => [r.user.id, r.onList])).toEqual(
        [ann.id, bob.id].map((id) => [id, context.members.some((m) => m.id === id)]),
      )
    }
    if (event.type === 'xstate.error.actor.searchUsers') expect(selectSearchFailed(snapshot)).toBe(true)
    if (event.type === 'members.add') {
      if (event.userId === bob.id) expect(context.change).toEqual({ kind: 'add', id: 'l-birds', member: { ...bob } })
      else expect(started, 'a member on the list is not added again').toEqual([])
    }
    if (event.type === 'members.remove') expect(context.change).toEqual({ kind: 'remove', id: 'l-birds', userId: ann.id })
    if (event.type === 'members.back') expect(selectOpenList(snapshot)).toBeNull()

    const change = before.context.change
    const settled = ['xstate.done.actor.change', 'xstate.done.actor.saveForm', 'xstate.done.actor.changeMember']
    const refused = ['xstate.error.actor.change', 'xstate.error.actor.saveForm', 'xstate.error.actor.changeMember']
    if (settled.includes(event.type) && change) {
      expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: SAVED[change.kind] })])
      expect(context.change).toBeNull()
      if (change.kind === 'create') expect(context.lists[0]?.name).toBe('Shorebirds')
      if (change.kind === 'update') expect(context.lists.find((l) => l.id === 'l-birds')?.name).toBe('Waders')
      if (change.kind === 'delete') expect(context.lists.map((l) => l.id)).not.toContain('l-birds')
      if (change.kind === 'unsubscribe') expect(context.lists.find((l) => l.id === 'l-theirs')).toMatchObject({ subscribed: false, subscriberCount: 2 })
      if (change.kind === 'add') {
        // The new member shows first (most recently added first).
        expect(selectMembers(snapshot)[0]?.id).toBe(bob.id)
        expect(context.lists.find((l) => l.id === 'l-birds')?.memberCount).toBe(2)
      }
      if (change.kind === 'remove') expect(selectMembers(snapshot).map((m) => m.id)).not.toContain(ann.id)
    } else if (refused.includes(event.type) && change) {
      const error = (event as unknown as { error: { message: string } }).error
      const message = error === nameTaken || error.message === 'List not found' ? error.message : REFUSED[change.kind]
      expect(toasts).toEqual([expect.objectContaining({ type: 'error', message })])
      if (event.type === 'xstate.error.actor.saveForm') {
        // The form stays (with what was typed) and is told why, to say under it.
        expect(selectEditing(snapshot)).toBe(true)
        expect(form?.context.heard.at(-1)).toEqual({ type: 'form.refused', message })
      } else {
        expect(context.lists).toEqual(before.context.lists)
        expect(context.members).toEqual(before.context.members)
      }
    } else if (event.type === 'xstate.error.actor.loadMembers') {
      // The panel stays open and says why, with Try again; no toast.
      expect(toasts).toEqual([])
      expect(selectMembersFailed(snapshot)).toBe(true)
      expect(selectMembersError(snapshot)).toBe(MEMBERS_LOAD_FAILED)
      expect(selectOpenList(snapshot)?.id).toBe('l-birds')
    } else {
      expect(toasts, 'only a saved or refused change says anything').toEqual([])
    }
  }
  actor.stop()
})

describe('manage lists', () => {
  it(`searches ${SEARCH_DEBOUNCE_MS} ms after the last keystroke`, () => {
    expect(SEARCH_DEBOUNCE_MS).toBe(500)
  })
})
