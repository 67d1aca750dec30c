import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { sessionsMachine } from '../../src/machines/sessions/sessions.machine'
import {
  addressesOf,
  deviceOf,
  NO_OTHER_SESSIONS,
  othersSignedOut,
  SESSION_SIGNED_OUT,
  SESSIONS_LOAD_FAILED,
  SIGN_OUT_FAILED,
} from '../../src/machines/sessions/sessions.rules'
import {
  selectBusy,
  selectCanRevokeOthers,
  selectHasMore,
  selectLoadError,
  selectLoading,
  selectOpen,
  selectRevoking,
  selectRevokingOthers,
  selectSessions,
} from '../../src/machines/sessions/sessions.selectors'
import { gone, offline, sessionsModel } from './models/sessions.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The View Sessions dialog. What the member sees after each step: whether the dialog is open, the spinner or the
// reason with Try again, the sessions listed (this device always first and never with Sign out), which Sign out is
// saving, whether "Sign out all other sessions" is offered, every toast, and what was asked of the server. The walks
// are the model's (./models/sessions.model.ts).

describeWalks('view sessions', sessionsModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = sessionsMachine.provide({
    actors: { loadSessions: calls.invoked(), revokeSession: calls.actor('revokeSession'), revokeOthers: calls.actor('revokeOthers') },
  })
  const actor = withToasts(createActor(machine, { inspect })).start()
  expect(selectOpen(actor.getSnapshot()), 'closed until View Sessions').toBe(false)
  expect(calls.started).toEqual([])

  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, { calls })) {
    const sessions = selectSessions(snapshot)
    const toasts = shownToasts().slice(toastsBefore)

    expect(selectLoading(snapshot)).toBe(snapshot.matches({ open: 'loading' }))
    expect(selectLoadError(snapshot) !== null).toBe(snapshot.matches({ open: 'failed' }))
    // This device is listed first, once.
    if (sessions.length > 0) expect(sessions.filter((s) => s.current).map((s) => sessions.indexOf(s))).toEqual([0])
    // "Sign out all other sessions" is offered only when there may be others and nothing is saving.
    expect(selectCanRevokeOthers(snapshot)).toBe(
      snapshot.matches({ open: { ready: 'idle' } }) && (sessions.some((s) => !s.current) || selectHasMore(snapshot)),
    )

    if (event.type === 'sessions.open' || event.type === 'sessions.retry') {
      expect(selectLoading(snapshot)).toBe(true)
      expect(calls.started.slice(startedBefore)).toEqual([{ id: 'loadSessions', input: { cursor: null } }])
    }
    if (event.type === 'sessions.close') {
      // A sign-out on its way keeps the dialog open until its answer (and toast) arrives.
      expect(selectOpen(snapshot)).toBe(before.matches({ open: { ready: 'revoking' } }) || before.matches({ open: { ready: 'revokingOthers' } }))
    }
    if (event.type === 'xstate.error.actor.loadSessions') {
      expect(selectLoadError(snapshot)).toBe(event.error === offline ? offline.message : SESSIONS_LOAD_FAILED)
    }
    if (event.type === 'sessions.more') expect(calls.started.at(-1)).toEqual({ id: 'loadMore', input: { cursor: 'c2' } })
    if (event.type === 'xstate.done.actor.loadMore') expect(sessions).toEqual([...before.context.sessions, ...event.output.sessions])
    if (event.type === 'session.revoke') {
      const other = before.context.sessions.some((s) => s.id === event.id && !s.current)
      const idle = before.matches({ open: { ready: 'idle' } })
      // This device has no Sign out; another session's sends exactly one call.
      expect(calls.started.slice(startedBefore)).toEqual(other && idle ? [{ id: 'revokeSession', input: { id: event.id } }] : [])
      if (other && idle) expect(selectRevoking(snapshot)).toBe(event.id)
    }
    if (event.type === 'sessions.revokeOthers' && selectRevokingOthers(snapshot)) {
      expect(calls.started.slice(startedBefore)).toEqual([{ id: 'revokeOthers', input: undefined }])
    }
    expect(selectBusy(snapshot)).toBe(
      (['revoking', 'revokingOthers', 'loadingMore'] as const).some((s) => snapshot.matches({ open: { ready: s } })),
    )

    if (event.type === 'xstate.done.actor.revokeSession') {
      expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: SESSION_SIGNED_OUT })])
      expect(sessions.map((s) => s.id)).not.toContain(before.context.revoking)
    } else if (event.type === 'xstate.error.actor.revokeSession') {
      expect(toasts).toEqual([expect.objectContaining({ type: 'error', message: event.error === gone ? gone.message : SIGN_OUT_FAILED })])
      expect(sessions).toEqual(before.context.sessions)
    } else if (event.type === 'xstate.done.actor.revokeOthers') {
      expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: othersSignedOut(event.output) })])
      // The list is read again: what the server now holds.
      expect(calls.started.slice(startedBefore)).toEqual([{ id: 'loadSessions', input: { cursor: null } }])
    } else if (event.type === 'xstate.error.actor.revokeOthers') {
      expect(toasts).toEqual([expect.objectContaining({ type: 'error', message: SIGN_OUT_FAILED })])
      expect(sessions).toEqual(before.context.sessions)
    } else {
      expect(toasts, 'only a sign-out says anything').toEqual([])
    }
  }
  actor.stop()
})

describe('what a session row says', () => {
  it('names the browser and system, and the addresses once when they agree', () => {
    expect(deviceOf({ browser: 'Firefox 133', os: 'Windows 10' })).toBe('Firefox 133 on Windows 10')
    expect(addressesOf({ createdIp: '203.0.113.5', lastIp: '203.0.113.5' })).toBe('IP 203.0.113.5')
    expect(addressesOf({ createdIp: '203.0.113.5', lastIp: '198.51.100.7' })).toBe(
      'Signed in from 203.0.113.5, last used from 198.51.100.7',
    )
    expect(addressesOf({ createdIp: null, lastIp: '198.51.100.7' })).toBe('Last used from 198.51.100.7')
    expect(addressesOf({ createdIp: null, lastIp: null })).toBeNull()
  })

  it('counts the sessions signed out', () => {
    expect(othersSignedOut(0)).toBe(NO_OTHER_SESSIONS)
    expect(othersSignedOut(1)).toBe('Signed out 1 other session')
    expect(othersSignedOut(3)).toBe('Signed out 3 other sessions')
  })
})
