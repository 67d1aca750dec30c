import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { newMessageMachine } from '../../src/machines/new-message/new-message.machine'
import { keysBlock, KEYS_NOT_READY, NO_USERS_FOUND, SEARCH_FAILED } from '../../src/machines/new-message/new-message.rules'
import {
  selectIsOpen,
  selectKeysReason,
  selectNotice,
  selectQuery,
  selectResults,
  selectSearching,
} from '../../src/machines/new-message/new-message.selectors'
import { keysSaying, ME, newMessageModel } from './models/new-message.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'

// The New Message modal. What the member sees after each step: open or closed, the reason instead of the search when
// this browser has no key, what is typed, the spinner, the members found (never the viewer), 'No users found', and
// what was asked of the server (only 2 characters or more, only after the pause) and of the conversation list.

describeWalks('new message', newMessageModel, async ({ walk, inspect, replay }) => {
  const calls = new Calls()
  const started: string[] = []
  const machine = newMessageMachine.provide({
    actors: { wait: calls.actor('wait'), searchUsers: calls.actor('searchUsers') },
    actions: {
      // What the conversation list is asked (sendTo 'conversations' in the app).
      start: (_, recipientId: string) => void started.push(recipientId),
    },
  })
  const actor = createActor(machine, { input: walk.options().input as { userId: string; keys: ReturnType<typeof keysSaying> }, inspect }).start()

  const replayed = replay(actor, {
    calls,
    mark: () => ({ pickedBefore: started.length }),
  })
  for await (const { event, before, snapshot, startedBefore, marked: { pickedBefore } } of replayed) {
    const asked = calls.started.slice(startedBefore)

    expect(selectIsOpen(snapshot)).toBe(!snapshot.matches('closed'))
    // The viewer is never offered.
    expect(selectResults(snapshot).map((u) => u.id)).not.toContain(ME)
    if (event.type === 'new-message.open') expect(selectKeysReason(snapshot)).toBe(walk.keysReason)
    if (walk.keysReason !== null) {
      // Without the key: no search, nothing to pick.
      expect(calls.started.filter((c) => c.id === 'searchUsers')).toEqual([])
      expect(snapshot.matches('open')).toBe(false)
    }
    if (event.type === 'new-message.query' && snapshot.matches('open')) {
      expect(selectQuery(snapshot)).toBe(event.value)
      // The search waits for the pause, and never for fewer than 2 characters.
      expect(asked).toEqual(event.value.trim().length >= 2 ? [{ id: 'wait', input: undefined }] : [])
      expect(selectSearching(snapshot)).toBe(event.value.trim().length >= 2)
    }
    if (event.type === 'xstate.done.actor.wait') expect(asked).toEqual([{ id: 'searchUsers', input: { query: before.context.query } }])
    if (event.type === 'xstate.done.actor.searchUsers') {
      const users = (event.output as { users: Array<{ id: string }> }).users.filter((u) => u.id !== ME)
      expect(selectResults(snapshot).map((u) => u.id)).toEqual(users.map((u) => u.id))
      expect(selectNotice(snapshot)).toBe(users.length === 0 ? NO_USERS_FOUND : null)
    }
    if (event.type === 'xstate.error.actor.searchUsers') expect(selectNotice(snapshot)).toBe(SEARCH_FAILED)
    if (event.type === 'new-message.pick' && before.context.results.some((u) => u.id === event.userId)) {
      // The list starts the conversation (and opens it); the modal closes, emptied.
      expect(started.slice(pickedBefore)).toEqual([event.userId])
      expect(selectIsOpen(snapshot)).toBe(false)
      expect(snapshot.context.query).toBe('')
    } else {
      expect(started.length, 'nothing started').toBe(pickedBefore)
    }
    if (event.type === 'new-message.close') expect(snapshot.context).toMatchObject({ query: '', results: [], keysReason: null })
  }
  actor.stop()
})

describe('new message rules', () => {
  it('blocks without a ready key, with the keys actor reason or the default', () => {
    expect(keysBlock({ status: 'ready', reason: 'Not kept after a reload' })).toBeNull()
    expect(keysBlock({ status: 'unavailable', reason: 'The key could not be unwrapped.' })).toBe('The key could not be unwrapped.')
    expect(keysBlock({ status: 'missing', reason: null })).toBe(KEYS_NOT_READY)
    expect(keysBlock(undefined)).toBe(KEYS_NOT_READY)
  })
})
