import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'

// Bookmarks and their collections (openapi.yaml tag `bookmarks`), in the style of mutes.calls.ts: every call is an
// Effect failing only with a typed ApiError; reads retry once on a transient failure, writes never retry.

type Schemas = components['schemas']

export type Bookmark = Schemas['Bookmark']
export type Collection = Schemas['Collection']
export type BookmarksPage = Schemas['BookmarksPage']
export type CollectionsPage = Schemas['CollectionsPage']
export type CollectionFields = Schemas['CreateCollectionRequest']

const cursorParam = (cursor: string | null | undefined) => (cursor ? { cursor } : {})

export function makeBookmarkCalls(client: ApiClient) {
  return {
    /** The member's bookmarks, newest first; with a collection, the bookmarks filed in it. */
    getBookmarks: (cursor?: string | null, collectionId?: string): Effect.Effect<BookmarksPage, ApiError> =>
      query<BookmarksPage>((signal) =>
        client.GET('/bookmarks', {
          params: { query: { ...cursorParam(cursor), ...(collectionId ? { collectionId } : {}) } },
          signal,
        }),
      ),

    createBookmark: (postId: string): Effect.Effect<Bookmark, ApiError> =>
      mutation<Schemas['BookmarkResponse']>((signal) => client.POST('/bookmarks', { body: { postId }, signal })).pipe(
        Effect.map((body) => body.bookmark),
      ),

    /** By the bookmark's id (the Bookmarks dialog). */
    deleteBookmark: (id: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/bookmarks/{id}', { params: { path: { id } }, signal })).pipe(Effect.asVoid),

    /** By the post's id (a post card's bookmark button). */
    deletePostBookmark: (postId: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/bookmarks/posts/{postId}', { params: { path: { postId } }, signal })).pipe(
        Effect.asVoid,
      ),

    getCollections: (cursor?: string | null): Effect.Effect<CollectionsPage, ApiError> =>
      query<CollectionsPage>((signal) => client.GET('/bookmarks/collections', { params: { query: cursorParam(cursor) }, signal })),

    createCollection: (fields: CollectionFields): Effect.Effect<Collection, ApiError> =>
      mutation<Schemas['CollectionResponse']>((signal) => client.POST('/bookmarks/collections', { body: fields, signal })).pipe(
        Effect.map((body) => body.collection),
      ),

    updateCollection: (id: string, fields: CollectionFields): Effect.Effect<Collection, ApiError> =>
      mutation<Schemas['CollectionResponse']>((signal) =>
        client.PATCH('/bookmarks/collections/{id}', { params: { path: { id } }, body: fields, signal }),
      ).pipe(Effect.map((body) => body.collection)),

    /** Answers the collection with its new post count. */
    addCollectionPost: (id: string, postId: string): Effect.Effect<Collection, ApiError> =>
      mutation<Schemas['CollectionResponse']>((signal) =>
        client.POST('/bookmarks/collections/{id}/posts', { params: { path: { id } }, body: { postId }, signal }),
      ).pipe(Effect.map((body) => body.collection)),

    removeCollectionPost: (id: string, postId: string): Effect.Effect<Collection, ApiError> =>
      mutation<Schemas['CollectionResponse']>((signal) =>
        client.DELETE('/bookmarks/collections/{id}/posts/{postId}', { params: { path: { id, postId } }, signal }),
      ).pipe(Effect.map((body) => body.collection)),
  }
}

export type BookmarkCalls = ReturnType<typeof makeBookmarkCalls>

/** The app's bookmark calls on the app's client. */
export const bookmarkCalls: BookmarkCalls = makeBookmarkCalls(api)
