import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'

// A member's key history and the viewer's sealed trust records (openapi.yaml, /users/{id}/key-history and
// /users/{id}/trust-record), in the style of calls.ts. A record is opaque here: sealed and opened in the browser
// (src/crypto/trust-record.ts), never read by the server.

type Schemas = components['schemas']

export type KeyHistoryEntry = Schemas['KeyHistoryEntry']

export function makeTrustCalls(client: ApiClient) {
  return {
    /** The newest page of a member's keys, newest first. */
    getKeyHistory: (userId: string): Effect.Effect<ReadonlyArray<KeyHistoryEntry>, ApiError> =>
      query<Schemas['KeyHistoryPage']>((signal) =>
        client.GET('/users/{id}/key-history', { params: { path: { id: userId } }, signal }),
      ).pipe(Effect.map((body) => body.keys)),

    /** The viewer's sealed record for a contact; null when none was stored. */
    getTrustRecord: (contactId: string): Effect.Effect<string | null, ApiError> =>
      query<Schemas['TrustRecordResponse']>((signal) =>
        client.GET('/users/{id}/trust-record', { params: { path: { id: contactId } }, signal }),
      ).pipe(Effect.map((body) => body.record)),

    putTrustRecord: (contactId: string, record: string): Effect.Effect<void, ApiError> =>
      mutation<Schemas['TrustRecordResponse']>((signal) =>
        client.PUT('/users/{id}/trust-record', { params: { path: { id: contactId } }, body: { record }, signal }),
      ).pipe(Effect.asVoid),
  }
}

export type TrustCalls = ReturnType<typeof makeTrustCalls>

export const trustCalls: TrustCalls = makeTrustCalls(api)
