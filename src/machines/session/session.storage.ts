import { EMPTY_SESSION, parseStoredSession, type SessionUser, type StoredSession } from './session.schema'

export const SESSION_STORAGE_KEY = 'auth-storage'

/** The slice of the session the browser keeps. */
export interface SessionFields {
  user: SessionUser | null
  token: string | null
  privateKey: string | null
}

/** `localStorage` when there is one (not in node tests, not in private modes that throw on access). */
function defaultStorage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

/** Reads and validates the stored session; bad JSON, a bad shape or no storage all read as the empty session. */
export function readStoredSession(storage: Storage | undefined = defaultStorage()): StoredSession {
  try {
    const raw = storage?.getItem(SESSION_STORAGE_KEY)
    if (!raw) return EMPTY_SESSION
    return parseStoredSession(JSON.parse(raw)) ?? EMPTY_SESSION
  } catch {
    return EMPTY_SESSION
  }
}

/** Writes the session; `isAuthenticated` is derived so it can never disagree with the token. */
export function writeStoredSession(fields: SessionFields, storage: Storage | undefined = defaultStorage()): void {
  const value: StoredSession = {
    user: fields.user,
    token: fields.token,
    privateKey: fields.privateKey,
    isAuthenticated: fields.token !== null && fields.user !== null,
  }
  try {
    storage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(value))
  } catch {
    // Quota exceeded or storage disabled: the session still works for this tab, it just won't survive a reload.
  }
}
