import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'

// The member's own sessions (openapi.yaml, /auth/sessions), in the style of mutes.calls.ts: the read retries once on a
// transient failure, the revokes never retry.

type Schemas = components['schemas']

export type Session = Schemas['Session']
export type SessionsPage = Schemas['SessionsResponse']

export function makeSessionCalls(client: ApiClient) {
  return {
    /** One page: the current session first, then the others by last use. */
    list: (cursor?: string | null): Effect.Effect<SessionsPage, ApiError> =>
      query<SessionsPage>((signal) =>
        client.GET('/auth/sessions', { params: { query: cursor ? { cursor } : {} }, signal }),
      ),

    revoke: (id: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/auth/sessions/{id}', { params: { path: { id } }, signal })).pipe(Effect.asVoid),

    /** Answers how many sessions ended. */
    revokeOthers: (): Effect.Effect<number, ApiError> =>
      mutation<Schemas['RevokeSessionsResponse']>((signal) => client.POST('/auth/sessions/revoke-others', { signal })).pipe(
        Effect.map((body) => body.revoked),
      ),
  }
}

export type SessionCalls = ReturnType<typeof makeSessionCalls>

/** The app's session calls on the app's client. */
export const sessionCalls: SessionCalls = makeSessionCalls(api)
