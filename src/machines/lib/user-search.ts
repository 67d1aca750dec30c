import { fromPromise } from 'xstate'
import { run } from '../../api/calls'
import { LIMITS } from '../../api/contract/limits'
import { discoverCalls, type UserSearchResponse } from '../../api/discover.calls'

// The member search of Manage Lists' members panel and of the New Message modal's 'To:' field: one rule for both, so
// the two fields answer typing alike. It asks GET /users/search once the member has stopped typing for
// SEARCH_DEBOUNCE_MS, from LIMITS.userSearchMin characters (the server refuses fewer); fewer clear the results. The
// machines run the two actors under the names `wait` and `searchUsers` (their tests provide fakes by name), and supply
// the `searchable` guard and the `setQuery`, `clearResults` and `showResults` actions the pieces below name.

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

type Typed = { event: { value: string } }

/**
 * What typing does, on the state that holds the search (children `idle` and `debouncing`): enough characters start the
 * pause again (a keystroke restarts it); fewer ask nothing and clear the results.
 */
export const typedQuery = [
  {
    guard: { type: 'searchable', params: ({ event }: Typed) => event.value },
    target: '.debouncing',
    reenter: true,
    actions: { type: 'setQuery', params: ({ event }: Typed) => event.value },
  },
  { target: '.idle', actions: [{ type: 'setQuery', params: ({ event }: Typed) => event.value }, 'clearResults'] },
] as const

/** The search once the pause is over: the results show and `done` follows, or they clear and `failed` follows. */
export function searchingState<const TDone extends string, const TFailed extends string>(targets: { done: TDone; failed: TFailed }) {
  return {
    tags: ['searching'],
    invoke: {
      id: 'searchUsers',
      src: 'searchUsers',
      input: ({ context }: { context: { query: string } }) => ({ query: context.query }),
      onDone: {
        target: targets.done,
        actions: { type: 'showResults', params: ({ event }: { event: { output: UserSearchResponse } }) => event.output },
      },
      onError: { target: targets.failed, actions: 'clearResults' },
    },
  } as const
}
