import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'

// Blocked members, keywords and domains (openapi.yaml tag `blocks`), in the style of calls.ts: every call is an Effect
// failing only with a typed ApiError; the read retries once on a transient failure, writes never retry. Keywords and
// domains travel in the path, encoded by openapi-fetch (a keyword may hold spaces, `/` or `?`).

type Schemas = components['schemas']

export type BlockedUser = Schemas['BlockedUser']
export type BlocksResponse = Schemas['BlocksResponse']

const cursorParam = (cursor: string | null | undefined) => (cursor ? { cursor } : {})

export function makeBlockCalls(client: ApiClient) {
  return {
    /** One page of blocked members (most recent first) with every keyword and domain. */
    getBlocks: (cursor?: string | null): Effect.Effect<BlocksResponse, ApiError> =>
      query<BlocksResponse>((signal) => client.GET('/blocks', { params: { query: cursorParam(cursor) }, signal })),

    blockUser: (userId: string): Effect.Effect<BlockedUser, ApiError> =>
      mutation<Schemas['BlockedUserResponse']>((signal) =>
        client.POST('/blocks/user/{userId}', { params: { path: { userId } }, signal }),
      ).pipe(Effect.map((body) => body.block)),

    unblockUser: (userId: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/blocks/user/{userId}', { params: { path: { userId } }, signal })).pipe(
        Effect.asVoid,
      ),

    /** Answers the keyword as the server stored it (trimmed). */
    blockKeyword: (keyword: string): Effect.Effect<string, ApiError> =>
      mutation<Schemas['KeywordResponse']>((signal) => client.POST('/blocks/keyword', { body: { keyword }, signal })).pipe(
        Effect.map((body) => body.keyword),
      ),

    unblockKeyword: (keyword: string): Effect.Effect<void, ApiError> =>
      mutation((signal) =>
        client.DELETE('/blocks/keyword/{keyword}', { params: { path: { keyword } }, signal }),
      ).pipe(Effect.asVoid),

    /** Answers the domain as the server stored it (trimmed, lowercased). */
    blockDomain: (domain: string): Effect.Effect<string, ApiError> =>
      mutation<Schemas['DomainResponse']>((signal) => client.POST('/blocks/domain', { body: { domain }, signal })).pipe(
        Effect.map((body) => body.domain),
      ),

    unblockDomain: (domain: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/blocks/domain/{domain}', { params: { path: { domain } }, signal })).pipe(
        Effect.asVoid,
      ),
  }
}

export type BlockCalls = ReturnType<typeof makeBlockCalls>

/** The app's block calls on the app's client. */
export const blockCalls: BlockCalls = makeBlockCalls(api)
