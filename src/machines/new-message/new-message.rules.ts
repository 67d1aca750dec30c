import type { UserSearchResult } from '../../api/discover.calls'

// The New Message modal's rules: the 'To:' search waits 500 ms after the last keystroke and needs at
// least 2 characters; the viewer is never offered as a recipient; without a ready message key in this browser nothing
// can be encrypted, so the modal says why instead of searching.

export const SEARCH_DEBOUNCE_MS = 500
export const MIN_QUERY_LENGTH = 2
export const NO_USERS_FOUND = 'No users found'
export const SEARCH_FAILED = 'Failed to search users'
export const KEYS_NOT_READY = 'Your message key is not set up in this browser.'

export const isSearchable = (query: string) => query.trim().length >= MIN_QUERY_LENGTH

/** The members the search found, without the viewer. */
export const recipients = (users: ReadonlyArray<UserSearchResult>, me: string): UserSearchResult[] => users.filter((u) => u.id !== me)

/** What the keys actor (systemId 'keys') tells about this browser's key: ready, or why not. */
export interface KeysState {
  readonly status: 'ready' | 'missing' | 'unavailable'
  readonly reason: string | null
}

/** Why a conversation cannot be started from this browser, or null when it can. */
export const keysBlock = (keys: KeysState | undefined): string | null =>
  keys?.status === 'ready' ? null : (keys?.reason ?? KEYS_NOT_READY)
