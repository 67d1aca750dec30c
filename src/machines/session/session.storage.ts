import { EMPTY_SESSION, parseStoredSession, type SessionUser, type StoredSession } from './session.schema'

export const SESSION_STORAGE_KEY = 'auth-storage'

/** The slice of the session the browser keeps. */
export interface SessionFields {
  user: SessionUser | null
  token: string | null
  privateKey: string | null
  /**
   * "Remember me": kept in localStorage (survives the browser); otherwise in sessionStorage (ends with the tab, and a
   * new tab signs in again). Absent means remembered: sessions stored before the choice existed were.
   */
  remember?: boolean
}

/** Where the session may be kept: the browser's (`local`) and the tab's (`tab`). */
export interface SessionStorages {
  local: Storage | undefined
  tab: Storage | undefined
}

/** A storage by name, or undefined where there is none (node tests, private modes that throw on access). */
function storageNamed(name: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return globalThis[name]
  } catch {
    return undefined
  }
}

function defaultStorages(): SessionStorages {
  return { local: storageNamed('localStorage'), tab: storageNamed('sessionStorage') }
}

/** One storage as a whole set (tests that give one storage mean the browser's). */
const storagesOf = (given: Storage | SessionStorages | undefined): SessionStorages =>
  given === undefined ? defaultStorages() : 'getItem' in given ? { local: given, tab: undefined } : given

function readFrom(storage: Storage | undefined): StoredSession | null {
  try {
    const raw = storage?.getItem(SESSION_STORAGE_KEY)
    if (!raw) return null
    return parseStoredSession(JSON.parse(raw))
  } catch {
    return null
  }
}

/**
 * Reads and validates the stored session: the tab's first (a session not remembered), then the browser's. Bad JSON,
 * a bad shape or no storage all read as the empty session. `remember` says where it was found.
 */
export function readStoredSession(given?: Storage | SessionStorages): StoredSession {
  const { local, tab } = storagesOf(given)
  const inTab = readFrom(tab)
  if (inTab?.token) return { ...inTab, remember: false }
  const inBrowser = readFrom(local)
  return inBrowser ? { ...inBrowser, remember: true } : EMPTY_SESSION
}

function put(storage: Storage | undefined, value: StoredSession): void {
  try {
    storage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(value))
  } catch {
    // Quota exceeded or storage disabled: the session still works for this tab, it just won't survive a reload.
  }
}

function remove(storage: Storage | undefined): void {
  try {
    storage?.removeItem(SESSION_STORAGE_KEY)
  } catch {
    // Storage disabled: there is nothing kept to remove.
  }
}

/**
 * Writes the session where its "Remember me" says, and empties the other place, so a sign-out (or a sign-in with the
 * other choice) never leaves a token behind. `isAuthenticated` is derived so it can never disagree with the token.
 */
export function writeStoredSession(fields: SessionFields, given?: Storage | SessionStorages): void {
  const { local, tab } = storagesOf(given)
  const value: StoredSession = {
    user: fields.user,
    token: fields.token,
    privateKey: fields.privateKey,
    isAuthenticated: fields.token !== null && fields.user !== null,
  }
  const remembered = fields.remember ?? true
  if (fields.token !== null && !remembered && tab) {
    put(tab, value)
    put(local, EMPTY_SESSION)
  } else {
    // No tab storage at all: the browser's is the only place the session can survive a reload.
    put(local, value)
    remove(tab)
  }
}
