import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'

// The viewer's incoming follow requests (openapi.yaml, /follow-requests; docs/product.md, "Private accounts and follow
// requests"), in the style of calls.ts: every call is an Effect failing only with a typed ApiError; the read retries
// once on a transient failure, approve and decline never retry. Cancelling one's own request is `userCalls.unfollow`.

type Schemas = components['schemas']

export type FollowRequest = Schemas['FollowRequest']
export type FollowRequestsPage = Schemas['FollowRequestsPage']
export type FollowRequestApproved = Schemas['FollowRequestApproved']

const cursorParam = (cursor: string | null | undefined) => (cursor ? { cursor } : {})

export function makeFollowRequestCalls(client: ApiClient) {
  return {
    /** One page of pending requests to the viewer, most recent first. */
    getFollowRequests: (cursor?: string | null): Effect.Effect<FollowRequestsPage, ApiError> =>
      query<FollowRequestsPage>((signal) =>
        client.GET('/follow-requests', { params: { query: cursorParam(cursor) }, signal }),
      ),

    /** The requester (`userId`) now follows the viewer; answers the viewer's followers count. */
    approve: (userId: string): Effect.Effect<FollowRequestApproved, ApiError> =>
      mutation<FollowRequestApproved>((signal) =>
        client.POST('/follow-requests/{id}/approve', { params: { path: { id: userId } }, signal }),
      ),

    /** The request is gone; the requester sees the viewer as before they asked. */
    decline: (userId: string): Effect.Effect<void, ApiError> =>
      mutation((signal) =>
        client.POST('/follow-requests/{id}/decline', { params: { path: { id: userId } }, signal }),
      ).pipe(Effect.asVoid),
  }
}

export type FollowRequestCalls = ReturnType<typeof makeFollowRequestCalls>

/** The app's follow-request calls on the app's client. */
export const followRequestCalls: FollowRequestCalls = makeFollowRequestCalls(api)
