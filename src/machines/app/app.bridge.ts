import { fromCallback, type AnyActorRef, type EventObject } from 'xstate'
import { sessionBridge, type SessionBridge } from '../../api/client'
import type { SessionRef } from '../session/session-ref'
import type { SessionSnapshot } from './app.system'

// Two small callback actors the app actor runs for its whole life. They join the session actor to the things around
// it without either side importing the other.

/** The api client reads the bearer token from the session, and any 401 answer becomes `session.expired`. */
export function apiBridgeLogic(bridge: SessionBridge) {
  return fromCallback<EventObject>(({ system }) => {
    const session = () => system.get('session') as SessionRef | undefined
    bridge.setTokenProvider(() => (session()?.getSnapshot() as SessionSnapshot | undefined)?.context.token ?? null)
    const stop = bridge.onUnauthorized(() => session()?.send({ type: 'session.expired' }))
    return () => {
      stop()
      bridge.setTokenProvider(() => null)
    }
  })
}

export const apiBridge = apiBridgeLogic(sessionBridge)

/** What the app actor hears about the session: loading, signed in (with whom and which token) or signed out. */
export type SessionChange =
  | { type: 'app.session.loading' }
  | { type: 'app.session.signedIn'; userId: string; token: string }
  | { type: 'app.session.signedOut' }

export function describeSession(snapshot: SessionSnapshot): SessionChange {
  if (snapshot.hasTag('loading')) return { type: 'app.session.loading' }
  const { user, token } = snapshot.context
  if (snapshot.hasTag('authenticated') && user && token) return { type: 'app.session.signedIn', userId: user.id, token }
  return { type: 'app.session.signedOut' }
}

/** Tells the app actor each time the session's signed-in state (or its member or token) changes. */
export const watchSession = fromCallback<EventObject>(({ system, sendBack }) => {
  const session = system.get('session') as (AnyActorRef & { getSnapshot(): SessionSnapshot }) | undefined
  if (!session) return
  let last = ''
  const report = (snapshot: SessionSnapshot) => {
    const change = describeSession(snapshot)
    const key = JSON.stringify(change)
    if (key === last) return
    last = key
    sendBack(change)
  }
  report(session.getSnapshot())
  const subscription = session.subscribe({ next: report, error: () => undefined })
  return () => subscription.unsubscribe()
})
