import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'

// Lists (openapi.yaml tag `lists`), in the style of bookmarks.calls.ts: every call is an Effect failing only with a
// typed ApiError; reads retry once on a transient failure, writes never retry.

type Schemas = components['schemas']

export type List = Schemas['List']
export type ListsPage = Schemas['ListsPage']
export type ListDetail = Schemas['ListDetailResponse']
export type ListFields = Schemas['CreateListRequest']
export type ListMember = Schemas['UserSummary']
export type Subscription = Schemas['SubscribeResponse']
export type ListScope = 'all' | 'owned' | 'subscribed'

const cursorParam = (cursor: string | null | undefined) => (cursor ? { cursor } : {})

export function makeListCalls(client: ApiClient) {
  return {
    /** The viewer's lists and subscriptions, most recent first; with `member`, each says whether they are on it. */
    getLists: (cursor: string | null, scope: ListScope = 'all', member?: string): Effect.Effect<ListsPage, ApiError> =>
      query<ListsPage>((signal) =>
        client.GET('/lists', { params: { query: { scope, ...cursorParam(cursor), ...(member ? { member } : {}) } }, signal }),
      ),

    /** A list and one page of its members. */
    getList: (id: string, cursor?: string | null, limit?: number): Effect.Effect<ListDetail, ApiError> =>
      query<ListDetail>((signal) =>
        client.GET('/lists/{id}', { params: { path: { id }, query: { ...cursorParam(cursor), ...(limit ? { limit } : {}) } }, signal }),
      ),

    getListPosts: (id: string, cursor: string | null): Effect.Effect<Schemas['FeedResponse'], ApiError> =>
      query<Schemas['FeedResponse']>((signal) =>
        client.GET('/lists/{id}/posts', { params: { path: { id }, query: cursorParam(cursor) }, signal }),
      ),

    createList: (fields: ListFields): Effect.Effect<List, ApiError> =>
      mutation<Schemas['ListResponse']>((signal) => client.POST('/lists', { body: fields, signal })).pipe(Effect.map((body) => body.list)),

    updateList: (id: string, fields: ListFields): Effect.Effect<List, ApiError> =>
      mutation<Schemas['ListResponse']>((signal) => client.PATCH('/lists/{id}', { params: { path: { id } }, body: fields, signal })).pipe(
        Effect.map((body) => body.list),
      ),

    deleteList: (id: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/lists/{id}', { params: { path: { id } }, signal })).pipe(Effect.asVoid),

    /** Answers the list with its new member count. */
    addMember: (id: string, userId: string): Effect.Effect<List, ApiError> =>
      mutation<Schemas['ListResponse']>((signal) =>
        client.POST('/lists/{id}/members', { params: { path: { id } }, body: { userId }, signal }),
      ).pipe(Effect.map((body) => body.list)),

    removeMember: (id: string, userId: string): Effect.Effect<List, ApiError> =>
      mutation<Schemas['ListResponse']>((signal) =>
        client.DELETE('/lists/{id}/members/{userId}', { params: { path: { id, userId } }, signal }),
      ).pipe(Effect.map((body) => body.list)),

    subscribe: (id: string): Effect.Effect<Subscription, ApiError> =>
      mutation<Subscription>((signal) => client.POST('/lists/{id}/subscribe', { params: { path: { id } }, signal })),

    unsubscribe: (id: string): Effect.Effect<Subscription, ApiError> =>
      mutation<Subscription>((signal) => client.DELETE('/lists/{id}/subscribe', { params: { path: { id } }, signal })),
  }
}

export type ListCalls = ReturnType<typeof makeListCalls>

/** The app's list calls on the app's client. */
export const listCalls: ListCalls = makeListCalls(api)
