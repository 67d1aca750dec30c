import { Effect } from 'effect'
import { query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'

// Member search (GET /users/search, operationId searchUsers), in the style of calls.ts: an Effect failing only with a
// typed ApiError, retried once on a transient failure like every read. Used by the New Message modal's 'To:' field.

type Schemas = components['schemas']

export type UserSearchResult = Schemas['UserSearchResult']
export type UserSearchResponse = Schemas['UserSearchResponse']

export function makeSearchCalls(client: ApiClient) {
  return {
    /** Members whose username or display name holds `q` (at least 2 characters), with suggestions to follow. */
    searchUsers: (q: string): Effect.Effect<UserSearchResponse, ApiError> =>
      query<UserSearchResponse>((signal) => client.GET('/users/search', { params: { query: { q } }, signal })),
  }
}

export type SearchCalls = ReturnType<typeof makeSearchCalls>

/** The app's search calls on the app's client. */
export const searchCalls: SearchCalls = makeSearchCalls(api)
