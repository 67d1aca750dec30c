import { Effect } from 'effect'
import { query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'
import type { PostPage, Post } from './posts.calls'

// Search and discovery (openapi.yaml: searchPosts, searchUsers, searchHashtags, getTrending), in the style of
// calls.ts: every call is an Effect failing only with a typed ApiError; all are reads, so each retries once on a
// transient failure. Used by the Search screen (src/machines/search).

type Schemas = components['schemas']

export type UserSearchResult = Schemas['UserSearchResult']
export type UserSearchResponse = Schemas['UserSearchResponse']
export type Trend = Schemas['Trend']
export type HashtagsPage = Schemas['HashtagsPage']
export type TrendingResponse = Schemas['TrendingResponse']

export interface SearchQuery {
  q: string
  /** The previous page's `nextCursor`; absent for the first page. */
  cursor?: string | null
}

const params = ({ q, cursor }: SearchQuery) => (cursor ? { q, cursor } : { q })

export function makeDiscoverCalls(client: ApiClient) {
  return {
    /** Posts matching the text, `#tag` and `from:user` filters, best match first. */
    searchPosts: (search: SearchQuery): Effect.Effect<PostPage<Post>, ApiError> =>
      query<Schemas['PostsPage']>((signal) => client.GET('/posts/search', { params: { query: params(search) }, signal })),

    /** Members matching `q` (at least 2 characters); `q` null asks for the suggestions only (Who to Follow). */
    searchUsers: (search: SearchQuery | null): Effect.Effect<UserSearchResponse, ApiError> =>
      query<UserSearchResponse>((signal) =>
        client.GET('/users/search', { params: { query: search ? params(search) : {} }, signal }),
      ),

    /** Hashtags starting with `q` (a leading `#` is ignored), most used first, with their post counts. */
    searchHashtags: (search: SearchQuery): Effect.Effect<HashtagsPage, ApiError> =>
      query<HashtagsPage>((signal) => client.GET('/hashtags/search', { params: { query: params(search) }, signal })),

    /** Trending hashtags (at most 10, possibly none). */
    getTrending: (): Effect.Effect<TrendingResponse, ApiError> =>
      query<TrendingResponse>((signal) => client.GET('/posts/trending', { signal })),
  }
}

export type DiscoverCalls = ReturnType<typeof makeDiscoverCalls>

/** The app's discovery calls on the app's client. */
export const discoverCalls: DiscoverCalls = makeDiscoverCalls(api)
