import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'
import type { CurrentUser, MeResponse } from './types'

// Profiles, follows and one's own profile settings (openapi.yaml tag `users`), in the style of calls.ts: every call is
// an Effect failing only with a typed ApiError; reads retry once on a transient failure, writes never retry.

type Schemas = components['schemas']

export type UserProfile = Schemas['UserProfile']
export type UserProfileResponse = Schemas['UserProfileResponse']
export type ProfilePost = Schemas['FeedPost']
export type FollowEntry = Schemas['FollowEntry']
export type FollowResponse = Schemas['FollowResponse']
export type UpdateProfileRequest = Schemas['UpdateProfileRequest']
export type UpdatePrivacyRequest = Schemas['UpdatePrivacyRequest']
export type Audience = Schemas['Audience']

/** The profile tabs, in the order the profile shows them; the server answers each with what its name says. */
export const PROFILE_TABS = ['posts', 'replies', 'media', 'likes'] as const
export type ProfileTab = (typeof PROFILE_TABS)[number]

export interface ProfileQuery {
  username: string
  tab: ProfileTab
  /** The previous page's `nextCursor`; absent for the first page. */
  cursor?: string | null
}

export interface FollowListQuery {
  username: string
  cursor?: string | null
}

/** One page of a followers or following list, whichever direction was asked for. */
export interface FollowPage {
  entries: FollowEntry[]
  nextCursor: string | null
}

const cursorParam = (cursor: string | null | undefined) => (cursor ? { cursor } : {})

/**
 * openapi-typescript types a `format: binary` field as string, so the typed body only names the file; the serializer
 * sends the real bytes as multipart (and openapi-fetch leaves Content-Type to the browser for FormData, boundary
 * included).
 */
function imageBody(file: File) {
  return {
    body: { image: file.name },
    bodySerializer: () => {
      const form = new FormData()
      form.append('image', file, file.name)
      return form
    },
  }
}

const toUser = (body: MeResponse): CurrentUser => body.user

export function makeUserCalls(client: ApiClient) {
  return {
    getProfile: ({ username, tab, cursor }: ProfileQuery): Effect.Effect<UserProfileResponse, ApiError> =>
      query<UserProfileResponse>((signal) =>
        client.GET('/users/{username}', {
          params: { path: { username }, query: { tab, ...cursorParam(cursor) } },
          signal,
        }),
      ),

    getFollowers: ({ username, cursor }: FollowListQuery): Effect.Effect<FollowPage, ApiError> =>
      query<Schemas['FollowersPage']>((signal) =>
        client.GET('/users/{username}/followers', {
          params: { path: { username }, query: cursorParam(cursor) },
          signal,
        }),
      ).pipe(Effect.map((page) => ({ entries: page.followers, nextCursor: page.nextCursor }))),

    getFollowing: ({ username, cursor }: FollowListQuery): Effect.Effect<FollowPage, ApiError> =>
      query<Schemas['FollowingPage']>((signal) =>
        client.GET('/users/{username}/following', {
          params: { path: { username }, query: cursorParam(cursor) },
          signal,
        }),
      ).pipe(Effect.map((page) => ({ entries: page.following, nextCursor: page.nextCursor }))),

    follow: (userId: string): Effect.Effect<FollowResponse, ApiError> =>
      mutation<FollowResponse>((signal) => client.POST('/users/{id}/follow', { params: { path: { id: userId } }, signal })),

    unfollow: (userId: string): Effect.Effect<FollowResponse, ApiError> =>
      mutation<FollowResponse>((signal) =>
        client.DELETE('/users/{id}/follow', { params: { path: { id: userId } }, signal }),
      ),

    updateProfile: (body: UpdateProfileRequest): Effect.Effect<CurrentUser, ApiError> =>
      mutation<MeResponse>((signal) => client.PATCH('/users/profile', { body, signal })).pipe(Effect.map(toUser)),

    uploadAvatar: (file: File): Effect.Effect<CurrentUser, ApiError> =>
      mutation<MeResponse>((signal) => client.POST('/users/profile/avatar', { ...imageBody(file), signal })).pipe(
        Effect.map(toUser),
      ),

    uploadBanner: (file: File): Effect.Effect<CurrentUser, ApiError> =>
      mutation<MeResponse>((signal) => client.POST('/users/profile/banner', { ...imageBody(file), signal })).pipe(
        Effect.map(toUser),
      ),

    updatePrivacy: (body: UpdatePrivacyRequest): Effect.Effect<CurrentUser, ApiError> =>
      mutation<MeResponse>((signal) => client.PATCH('/users/settings/privacy', { body, signal })).pipe(
        Effect.map(toUser),
      ),
  }
}

export type UserCalls = ReturnType<typeof makeUserCalls>

/** The app's user calls on the app's client. */
export const userCalls: UserCalls = makeUserCalls(api)
