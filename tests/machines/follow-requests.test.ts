import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { followRequestsMachine, type PendingAnswer } from '../../src/machines/follow-requests/follow-requests.machine'
import {
  APPROVE_FAILED,
  DECLINE_FAILED,
  NO_REQUESTS,
  pendingCountLabel,
  REQUEST_APPROVED,
  REQUEST_DECLINED,
} from '../../src/machines/follow-requests/follow-requests.rules'
import {
  selectBusy,
  selectCountLabel,
  selectLoading,
  selectPending,
} from '../../src/machines/follow-requests/follow-requests.selectors'
import { followRequestsModel, gone, secondPage } from './models/follow-requests.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The follow-requests list (Settings -> Privacy & Safety, counted on Notifications). What the member sees after each
// step: the spinner, the rows, which row is busy, the count, the toasts, and what was asked of the server. The walks
// and events are the model's (./models/follow-requests.model.ts), shared with `npm run paths -- follow-requests`.

describeWalks('follow requests', followRequestsModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = followRequestsMachine.provide({ actors: { loadRequests: calls.invoked(), answer: calls.actor('answer') } })
  const actor = withToasts(createActor(machine, { inspect })).start()
  expect(calls.started).toEqual([{ id: 'loadRequests', input: { cursor: null } }])

  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, { calls })) {
    const { context } = snapshot
    const toasts = shownToasts()

    expect(selectLoading(snapshot)).toBe(snapshot.value === 'loading')
    expect(selectBusy(snapshot)).toBe(snapshot.matches({ ready: 'answering' }) || snapshot.matches({ ready: 'loadingMore' }))
    // Only the row being answered is busy, and only while it is.
    expect(selectPending(snapshot) !== null).toBe(snapshot.matches({ ready: 'answering' }))
    expect(selectCountLabel(snapshot)).toBe(
      snapshot.matches('ready') ? pendingCountLabel(context.requests.length, context.nextCursor !== null) : null,
    )
    expect(new Set(context.requests.map((r) => r.id)).size, 'each request is listed once').toBe(context.requests.length)

    if (event.type === 'xstate.done.actor.loadRequests') expect(context).toMatchObject(event.output as object)
    if (event.type === 'xstate.done.actor.loadMore') {
      // Appended after what is listed; Bob, on both pages, stays once.
      const held = before.context.requests.map((r) => r.id)
      expect(context.requests.map((r) => r.id)).toEqual([...held, ...secondPage.requests.map((r) => r.id).filter((id) => !held.includes(id))])
      expect(context.nextCursor).toBeNull()
    }
    if (event.type === 'requests.retry') expect(calls.started.at(-1)).toEqual({ id: 'loadRequests', input: { cursor: null } })
    if (event.type === 'requests.more') expect(calls.started.at(-1)).toEqual({ id: 'loadMore', input: { cursor: 'c2' } })
    if (event.type === 'request.approve' || event.type === 'request.decline') {
      const listed = before.context.requests.some((r) => r.id === event.userId)
      if (listed) {
        // Exactly one call, with the row's member and the answer; the row stays until the server agrees.
        const answer = event.type === 'request.approve' ? 'approve' : 'decline'
        expect(calls.started.length).toBe(startedBefore + 1)
        expect(calls.started.at(-1)).toEqual({ id: 'answer', input: { answer, userId: event.userId } })
        expect(selectPending(snapshot)).toEqual({ answer, userId: event.userId })
        expect(context.requests).toEqual(before.context.requests)
      } else {
        expect(calls.started.length, 'nothing is sent for a row that is not there').toBe(startedBefore)
      }
    }

    if (event.type === 'xstate.done.actor.answer') {
      const pending = before.context.pending as PendingAnswer
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: pending.answer === 'approve' ? REQUEST_APPROVED : REQUEST_DECLINED })
      expect(context.requests).toEqual(before.context.requests.filter((r) => r.id !== pending.userId))
    } else if (event.type === 'xstate.error.actor.answer') {
      const pending = before.context.pending as PendingAnswer
      const fallback = pending.answer === 'approve' ? APPROVE_FAILED : DECLINE_FAILED
      expect(toasts.at(-1)).toMatchObject({ type: 'error', message: event.error === gone ? gone.message : fallback })
      expect(toasts.length).toBe(toastsBefore + 1)
      // A refusal leaves the list as it was, except a request the server no longer has.
      const expected = event.error === gone ? before.context.requests.filter((r) => r.id !== pending.userId) : before.context.requests
      expect(context.requests).toEqual(expected)
    } else {
      expect(toasts.length, 'only an answer says anything').toBe(toastsBefore)
    }
  }
  actor.stop()
})

describe('follow requests', () => {
  it('counts what is loaded, with + while the server has a next page', () => {
    expect(pendingCountLabel(0, false)).toBeNull()
    expect(pendingCountLabel(3, false)).toBe('3')
    expect(pendingCountLabel(20, true)).toBe('20+')
  })

  it('says what docs/product.md says', () => {
    const product = readFileSync(new URL('../../docs/product.md', import.meta.url), 'utf8').replace(/\s+/g, ' ')
    for (const text of [REQUEST_APPROVED, REQUEST_DECLINED, APPROVE_FAILED, DECLINE_FAILED, NO_REQUESTS]) {
      expect(product).toContain(`"${text}"`)
    }
  })
})
