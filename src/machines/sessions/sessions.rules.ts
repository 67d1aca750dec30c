import type { Session } from '../../api/sessions.calls'

// The words of Settings -> Security -> View Sessions (docs/product.md, "Sessions"), and what a row says.

export const SESSIONS_LOAD_FAILED = 'Could not load your sessions.'
export const SESSION_SIGNED_OUT = 'Session signed out'
export const SIGN_OUT_FAILED = 'Could not sign out that session'
export const NO_OTHER_SESSIONS = 'No other sessions were signed in'

export const othersSignedOut = (count: number) =>
  count === 0 ? NO_OTHER_SESSIONS : count === 1 ? 'Signed out 1 other session' : `Signed out ${count} other sessions`

/** "Firefox 133 on Windows 10". */
export const deviceOf = (session: Pick<Session, 'browser' | 'os'>) => `${session.browser} on ${session.os}`

/** Where it signed in and where it was last used, once when they are the same; null when no address was kept. */
export function addressesOf(session: Pick<Session, 'createdIp' | 'lastIp'>): string | null {
  const { createdIp, lastIp } = session
  if (!createdIp && !lastIp) return null
  if (!lastIp || createdIp === lastIp) return `IP ${createdIp ?? lastIp}`
  if (!createdIp) return `Last used from ${lastIp}`
  return `Signed in from ${createdIp}, last used from ${lastIp}`
}

/** Whether there is another session to sign out. */
export const hasOthers = (sessions: ReadonlyArray<Pick<Session, 'current'>>) => sessions.some((s) => !s.current)
