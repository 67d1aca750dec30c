import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'

// Muted members, keywords and domains (openapi.yaml tag `mutes`), in the style of blocks.calls.ts: every call is an
// Effect failing only with a typed ApiError; the read retries once on a transient failure, writes never retry. Keywords
// and domains travel in the path on DELETE, encoded by openapi-fetch (a keyword may hold spaces, `/` or `?`).

type Schemas = components['schemas']

export type MutedUser = Schemas['MutedUser']
export type MutedKeyword = Schemas['MutedKeyword']
export type MutedDomain = Schemas['MutedDomain']
export type MutesResponse = Schemas['MutesResponse']

const cursorParam = (cursor: string | null | undefined) => (cursor ? { cursor } : {})

export function makeMuteCalls(client: ApiClient) {
  return {
    /** One page of muted members (most recent first) with every muted keyword and domain (alphabetical). */
    getMutes: (cursor?: string | null): Effect.Effect<MutesResponse, ApiError> =>
      query<MutesResponse>((signal) => client.GET('/mutes', { params: { query: cursorParam(cursor) }, signal })),

    /** The reason is sent only when one was given (it is optional, at most 200 characters). */
    muteUser: (userId: string, reason?: string): Effect.Effect<MutedUser, ApiError> =>
      mutation<Schemas['MutedUserResponse']>((signal) =>
        client.POST('/mutes/user', { body: reason ? { userId, reason } : { userId }, signal }),
      ).pipe(Effect.map((body) => body.mute)),

    unmuteUser: (userId: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/mutes/user/{id}', { params: { path: { id: userId } }, signal })).pipe(
        Effect.asVoid,
      ),

    /** Answers the mute as the server stored it (keyword trimmed). */
    muteKeyword: (keyword: string): Effect.Effect<MutedKeyword, ApiError> =>
      mutation<Schemas['MutedKeywordResponse']>((signal) => client.POST('/mutes/keyword', { body: { keyword }, signal })).pipe(
        Effect.map((body) => body.mute),
      ),

    unmuteKeyword: (keyword: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/mutes/keyword/{keyword}', { params: { path: { keyword } }, signal })).pipe(
        Effect.asVoid,
      ),

    /** Answers the mute as the server stored it (domain trimmed, lowercased). */
    muteDomain: (domain: string): Effect.Effect<MutedDomain, ApiError> =>
      mutation<Schemas['MutedDomainResponse']>((signal) => client.POST('/mutes/domain', { body: { domain }, signal })).pipe(
        Effect.map((body) => body.mute),
      ),

    unmuteDomain: (domain: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/mutes/domain/{domain}', { params: { path: { domain } }, signal })).pipe(
        Effect.asVoid,
      ),
  }
}

export type MuteCalls = ReturnType<typeof makeMuteCalls>

/** The app's mute calls on the app's client. */
export const muteCalls: MuteCalls = makeMuteCalls(api)
