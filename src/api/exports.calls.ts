import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'

// The member's data exports (openapi.yaml tag `exports`), in the style of sessions.calls.ts: reads retry once on a
// transient failure, the request never retries (a second POST would meet the first: 409).

type Schemas = components['schemas']

export type DataExport = Schemas['DataExport']

export function makeExportCalls(client: ApiClient) {
  return {
    list: (): Effect.Effect<DataExport[], ApiError> =>
      query<Schemas['ExportsResponse']>((signal) => client.GET('/exports', { signal })).pipe(Effect.map((body) => body.exports)),

    request: (): Effect.Effect<DataExport, ApiError> =>
      mutation<{ export: DataExport }>((signal) => client.POST('/exports', { signal })).pipe(Effect.map((body) => body.export)),

    /** The whole archive, as bytes: the browser adds the messages to it before saving it. */
    download: (id: string): Effect.Effect<ArrayBuffer, ApiError> =>
      query<ArrayBuffer>((signal) =>
        client.GET('/exports/{id}/download', { params: { path: { id } }, parseAs: 'arrayBuffer', signal }),
      ),
  }
}

export const exportCalls = makeExportCalls(api)
