import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import { idempotencyHeader } from './idempotency'
import type { components } from './contract/schema'

// Posts (openapi.yaml tag `posts`), in the style of calls.ts: every call is an Effect failing only with a typed
// ApiError; reads retry once on a transient failure, writes never retry (a retried POST could publish twice).

type Schemas = components['schemas']

export type Post = Schemas['Post']
export type FeedPost = Schemas['FeedPost']
export type PostMedia = Schemas['PostMedia']
export type LinkPreview = Schemas['LinkPreview']
export type Poll = Schemas['Poll']
export type Visibility = Schemas['Visibility']
export type UserSummary = Schemas['UserSummary']
export type FeedResponse = Schemas['FeedResponse']
export type PostDetailResponse = Schemas['PostDetailResponse']
export type LikeResponse = Schemas['LikeResponse']
export type RepostResponse = Schemas['RepostResponse']
export type QuotedPost = Schemas['QuotedPost']
export type PostQuote = Schemas['PostQuote']
export type PostUpdate = Schemas['UpdatePostRequest']
export type PostVersion = Schemas['PostVersion']
export type PostHistoryPage = Schemas['PostHistoryPage']

export const VISIBILITIES = ['public', 'followers', 'mentioned'] as const satisfies ReadonlyArray<Visibility>

/** What the composer sends. Files go as repeated `media` parts, each with its `alt` at the same position. */
export interface NewPost {
  content: string
  visibility: Visibility
  sensitive: boolean
  sensitiveReason: string
  replyTo: string | null
  /** The public post this one quotes (composer.quote.ts). */
  quoteOf?: string | null
  media: ReadonlyArray<{ file: File; alt: string }>
  /** A poll (never with media): options trimmed, duration in seconds. */
  poll?: { options: ReadonlyArray<string>; durationSeconds: number; multiple: boolean } | null
}

/** One page of a list of posts: the posts and the cursor of the next page (null on the last). */
export interface PostPage<P> {
  posts: P[]
  nextCursor: string | null
}

export interface PostDetailQuery {
  id: string
  /** The previous page of replies' `nextCursor`; absent for the first page. */
  cursor?: string | null
}

const cursorParam = (cursor: string | null | undefined) => (cursor ? { cursor } : {})

/**
 * The multipart form (openapi.yaml createPost): text fields as strings, `sensitive` as 'true'/'false', optional fields
 * left out when empty, then one `media` part per file with its `alt` (an empty alt is sent too, so alt[i] stays with
 * media[i]).
 */
export function toFormData(post: NewPost): FormData {
  const form = new FormData()
  if (post.content !== '') form.append('content', post.content)
  form.append('visibility', post.visibility)
  form.append('sensitive', post.sensitive ? 'true' : 'false')
  if (post.sensitive && post.sensitiveReason.trim() !== '') form.append('sensitiveReason', post.sensitiveReason.trim())
  if (post.replyTo) form.append('replyTo', post.replyTo)
  if (post.quoteOf) form.append('quoteOf', post.quoteOf)
  for (const { file } of post.media) form.append('media', file, file.name)
  for (const { alt } of post.media) form.append('alt', alt.trim())
  if (post.poll) {
    for (const option of post.poll.options) form.append('pollOptions', option)
    form.append('pollDuration', String(post.poll.durationSeconds))
    form.append('pollMultiple', post.poll.multiple ? 'true' : 'false')
  }
  return form
}

export function makePostCalls(client: ApiClient) {
  return {
    /** `idempotencyKey`: the submission's key (src/api/idempotency.ts); a retry of the same submission sends it again. */
    createPost: (post: NewPost, idempotencyKey: string | null = null): Effect.Effect<Post, ApiError> =>
      mutation<Schemas['PostResponse']>((signal) =>
        client.POST('/posts', {
          params: { header: idempotencyHeader(idempotencyKey) },
          // openapi-typescript types `format: binary` as string, so the typed body only names the parts; the
          // serializer sends the real form (openapi-fetch leaves Content-Type, boundary included, to the browser).
          body: {
            visibility: post.visibility,
            sensitive: post.sensitive ? 'true' : 'false',
            media: post.media.map(({ file }) => file.name),
          },
          bodySerializer: () => toFormData(post),
          signal,
        }),
      ).pipe(Effect.map((body) => body.post)),

    getFeed: (cursor: string | null): Effect.Effect<PostPage<FeedPost>, ApiError> =>
      query<FeedResponse>((signal) => client.GET('/posts/feed', { params: { query: cursorParam(cursor) }, signal })),

    /** Explore: public top-level posts of the instance's public accounts, newest first, with the viewer's filters. */
    getExplore: (cursor: string | null): Effect.Effect<PostPage<FeedPost>, ApiError> =>
      query<FeedResponse>((signal) => client.GET('/posts/explore', { params: { query: cursorParam(cursor) }, signal })),

    getPost: ({ id, cursor }: PostDetailQuery): Effect.Effect<PostDetailResponse, ApiError> =>
      query<PostDetailResponse>((signal) =>
        client.GET('/posts/{id}', { params: { path: { id }, query: cursorParam(cursor) }, signal }),
      ),

    /** The author's edit (openapi.yaml updatePost): the fields given change, the post as it reads now comes back. */
    updatePost: (id: string, update: PostUpdate): Effect.Effect<Post, ApiError> =>
      mutation<Schemas['PostResponse']>((signal) =>
        client.PATCH('/posts/{id}', { params: { path: { id } }, body: update, signal }),
      ).pipe(Effect.map((body) => body.post)),

    /** A post's versions, newest first, one page at a time. */
    getPostHistory: (id: string, cursor: string | null): Effect.Effect<PostHistoryPage, ApiError> =>
      query<PostHistoryPage>((signal) =>
        client.GET('/posts/{id}/history', { params: { path: { id }, query: cursorParam(cursor) }, signal }),
      ),

    deletePost: (id: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.DELETE('/posts/{id}', { params: { path: { id } }, signal })).pipe(Effect.asVoid),

    toggleLike: (id: string): Effect.Effect<LikeResponse, ApiError> =>
      mutation<LikeResponse>((signal) => client.POST('/posts/{id}/like', { params: { path: { id } }, signal })),

    /** The quotes of a post the viewer may see, newest first. */
    getQuotes: (id: string, cursor: string | null): Effect.Effect<PostPage<Post>, ApiError> =>
      query<Schemas['PostsPage']>((signal) =>
        client.GET('/posts/{id}/quotes', { params: { path: { id }, query: cursorParam(cursor) }, signal }),
      ),

    /** The quoted post's author detaches it from the quote `id`, for good. */
    detachQuote: (id: string): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.POST('/posts/{id}/detach', { params: { path: { id } }, signal })).pipe(Effect.asVoid),

    toggleRepost: (id: string): Effect.Effect<RepostResponse, ApiError> =>
      mutation<RepostResponse>((signal) => client.POST('/posts/{id}/repost', { params: { path: { id } }, signal })),
  }
}

export type PostCalls = ReturnType<typeof makePostCalls>

/** The app's post calls on the app's client. */
export const postCalls: PostCalls = makePostCalls(api)
