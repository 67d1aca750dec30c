import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'
import type { InstancePageSlug } from './contract/instance-pages'

// The instance's pages, /terms and /privacy (openapi.yaml tag `instance`; saving is tag `admin`).

export type InstancePage = components['schemas']['InstancePage']

export function makePageCalls(client: ApiClient) {
  return {
    /** Public: a visitor without an account reads it too. */
    getInstancePage: (slug: InstancePageSlug): Effect.Effect<InstancePage, ApiError> =>
      query<InstancePage>((signal) => client.GET('/instance/pages/{slug}', { params: { path: { slug } }, signal })),

    saveInstancePage: (slug: InstancePageSlug, body: string): Effect.Effect<InstancePage, ApiError> =>
      mutation<InstancePage>((signal) =>
        client.PUT('/admin/instance/pages/{slug}', { params: { path: { slug } }, body: { body }, signal }),
      ),
  }
}

export type PageCalls = ReturnType<typeof makePageCalls>
export const pageCalls: PageCalls = makePageCalls(api)
