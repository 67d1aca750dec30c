import type { AnyEventObject } from 'xstate'
import { Forbidden, Network, NotFound } from '../../../src/api/errors'
import type { Session } from '../../../src/api/sessions.calls'
import { sessionsMachine } from '../../../src/machines/sessions/sessions.machine'
import { type MachineModel, scenarioWalks, valueAndContext } from '../support/walks'

// The View Sessions dialog's model (Settings -> Security), in two walks that together take every transition: opening,
// failing and closing it, then signing sessions out one by one or all but this one. Walked by
// tests/machines/sessions.test.ts and printed by `npm run paths -- sessions`.

const at = '2026-11-27T10:00:00.000Z'
const session = (id: string, browser: string, os: string, current = false): Session => ({
  id,
  browser,
  os,
  createdIp: '203.0.113.5',
  lastIp: '203.0.113.9',
  createdAt: at,
  lastSeenAt: at,
  expiresAt: '2027-02-25T10:00:00.000Z',
  current,
})

export const thisDevice = session('s-this', 'Firefox 133', 'Windows 10', true)
export const phone = session('s-phone', 'Mobile Safari 17', 'iOS 17.1')
export const laptop = session('s-laptop', 'Chrome 131', 'macOS')

/** This device and the phone, and a next page (the laptop). */
export const firstPage = { sessions: [thisDevice, phone], nextCursor: 'c2' }
export const secondPage = { sessions: [laptop], nextCursor: null }
/** After "sign out all other sessions": only this device. */
export const onlyThis = { sessions: [thisDevice], nextCursor: null }

export const offline = new Network({ message: 'Unable to reach the server.' })
export const gone = new NotFound({ message: 'Session not found', fromServer: true })
/** A failure without the server's words. */
export const refused = new Forbidden({ message: 'You are not allowed to do that.', fromServer: false })

const scenarios: Array<{ name: string; events: AnyEventObject[] }> = [
  {
    name: 'opening',
    events: [
      { type: 'sessions.open' },
      { type: 'xstate.done.actor.loadSessions', output: firstPage },
      { type: 'xstate.error.actor.loadSessions', error: offline },
      { type: 'sessions.retry' },
      { type: 'sessions.close' },
      { type: 'sessions.more' },
      { type: 'xstate.done.actor.loadMore', output: secondPage },
      { type: 'xstate.error.actor.loadMore', error: offline },
    ],
  },
  {
    name: 'signing out',
    events: [
      { type: 'sessions.open' },
      { type: 'xstate.done.actor.loadSessions', output: firstPage },
      { type: 'xstate.done.actor.loadSessions', output: onlyThis },
      // This device has no Sign out: the event is refused.
      { type: 'session.revoke', id: 's-this' },
      { type: 'session.revoke', id: 's-phone' },
      { type: 'xstate.done.actor.revokeSession', output: undefined },
      { type: 'xstate.error.actor.revokeSession', error: gone },
      { type: 'xstate.error.actor.revokeSession', error: offline },
      { type: 'sessions.revokeOthers' },
      { type: 'xstate.done.actor.revokeOthers', output: 2 },
      { type: 'xstate.error.actor.revokeOthers', error: refused },
      { type: 'sessions.close' },
    ],
  },
]

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'xstate.done.actor.loadSessions') {
    return event.output === onlyThis ? 'loaded(only this device)' : 'loaded(this device, phone, more)'
  }
  if (event.type === 'xstate.done.actor.loadMore') return 'loaded more'
  if (event.type === 'session.revoke') return `session.revoke(${event.id as string})`
  if (event.type === 'xstate.error.actor.revokeSession') return `refused(${(event.error as Error).message})`
  return undefined
}

export const sessionsModel = {
  name: 'sessions',
  machine: sessionsMachine,
  walks: scenarioWalks(scenarios, {
    label,
    serializeState: valueAndContext,
    edgesOnly: 'sessions page in and leave as they are signed out: every order of pages and sign-outs is its own state',
  }),
} satisfies MachineModel
