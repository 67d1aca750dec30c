import type { UserSearchResult } from '../../api/discover.calls'

// The New Message modal's rules: the 'To:' search is the member search of Manage Lists too (lib/user-search.ts: 500 ms
// after the last keystroke, from 2 characters); the viewer is never offered as a recipient; without a ready message key in this browser nothing
// can be encrypted, so the modal says why instead of searching.

export { isSearchable, SEARCH_DEBOUNCE_MS, USER_SEARCH_FAILED as SEARCH_FAILED } from '../lib/user-search'
export const NO_USERS_FOUND = 'No users found'
export const KEYS_NOT_READY = 'Your message key is not set up in this browser.'

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
