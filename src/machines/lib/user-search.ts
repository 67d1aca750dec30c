import { fromPromise } from 'xstate'
import { run } from '../../api/calls'
import { LIMITS } from '../../api/contract/limits'
import { discoverCalls, type UserSearchResponse } from '../../api/discover.calls'

// The member search of Manage Lists' members panel and of the New Message modal's 'To:' field: one rule for both, so
// the two fields answer typing alike. It asks GET /users/search once the member has stopped typing for
// SEARCH_DEBOUNCE_MS, from LIMITS.userSearchMin characters (the server refuses fewer). The machines run the two actors
// under their own names (`wait`, `searchUsers`), so their tests provide fakes by name.

export const SEARCH_DEBOUNCE_MS = 500
export const USER_SEARCH_FAILED = 'Failed to search users'

export const isSearchable = (query: string) => query.trim().length >= LIMITS.userSearchMin

/** The debounce: done once SEARCH_DEBOUNCE_MS pass without the actor being stopped (a keystroke restarts it). */
export const waitForTyping = fromPromise<void>(
  ({ signal }) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SEARCH_DEBOUNCE_MS)
      signal.addEventListener('abort', () => clearTimeout(timer))
    }),
)

export const searchUsers = fromPromise<UserSearchResponse, { query: string }>(({ input, signal }) =>
  run(discoverCalls.searchUsers({ q: input.query.trim() }), signal),
)
