import { assertEvent, assign, fromPromise, sendTo, setup, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { describeError, isApiError, serverMessageOr } from '../../api/errors'
import type { CurrentUser } from '../../api/types'
import type { Post } from '../../api/posts.calls'
import {
  userCalls,
  type ProfileQuery,
  type ProfileTab,
  type UserProfile,
  type UserProfileResponse,
} from '../../api/users.calls'
import { appendEntries, prependEntries, removeEntry, toEntry } from '../posts/posts.model'
import { watchPosts } from '../posts/watch-posts'
import { showToast } from '../toasts/notify'
import { followMachine, PROFILE_FOLLOW_MESSAGES } from '../follow/follow.machine'
import { canFollow } from '../follow/follow.rules'
import { belongsToTab, isOwnProfile } from './profile.rules'
import type { ProfileContext, ProfileEvent, ProfileImage, ProfileInput } from './profile.types'

// A member's profile page (docs/product.md, "Profiles"): loading, then the member or 'User not found' or an error
// with Retry. Once loaded, two things run side by side:
// - list: the open tab's posts (Posts, Replies, Media, Likes), each read from the server with ?tab= (each tab is its
//   own list), page after page. Like the home feed, the list holds ids: the posts go to the
//   post cache, which also tells it about posts created (shown on top when they belong to the tab) and deleted;
// - upload: the owner's camera buttons replacing the avatar or the banner; a new avatar is told to the session so
//   the shell shows it at once.
// A visitor's Follow/Unfollow button is a child actor (follow.machine.ts) holding the exact followers count.

export const PROFILE_LOAD_FAILED = 'Could not load this profile. Please try again.'
export const POSTS_LOAD_FAILED = 'Could not load these posts. Please try again.'
export const AVATAR_UPDATED = 'Profile photo updated'
export const BANNER_UPDATED = 'Banner updated'
export const UPLOAD_FAILED = 'Could not upload the image. Please try again.'

interface ImageUpload {
  image: ProfileImage
  file: File
}

/** Which image an upload event replaces, with the new file. */
function imageUpload(event: ProfileEvent): ImageUpload {
  assertEvent(event, ['profile.avatar.upload', 'profile.banner.upload'])
  return { image: event.type === 'profile.avatar.upload' ? 'avatar' : 'banner', file: event.file }
}

function withPostCount(user: UserProfile, delta: number): UserProfile {
  return { ...user, stats: { ...user.stats, posts: Math.max(0, user.stats.posts + delta) } }
}

export const profileMachine = setup({
  types: {
    context: {} as ProfileContext,
    events: {} as ProfileEvent,
    input: {} as ProfileInput,
    tags: {} as 'loading' | 'listLoading' | 'busy' | 'uploading',
  },
  actors: {
    loadProfile: fromPromise<UserProfileResponse, ProfileQuery>(({ input, signal }) =>
      run(userCalls.getProfile(input), signal),
    ),
    loadPosts: fromPromise<UserProfileResponse, ProfileQuery>(({ input, signal }) =>
      run(userCalls.getProfile(input), signal),
    ),
    uploadImage: fromPromise<CurrentUser, ImageUpload>(({ input, signal }) =>
      run(input.image === 'avatar' ? userCalls.uploadAvatar(input.file) : userCalls.uploadBanner(input.file), signal),
    ),
    follow: followMachine,
    watchPosts,
  },
  actions: {
    storePosts: sendTo(
      ({ context }) => context.posts,
      (_, answer: UserProfileResponse) => ({ type: 'posts.received' as const, posts: answer.posts }),
    ),
    setProfile: assign(({ context, spawn }, answer: UserProfileResponse) => ({
      user: answer.user,
      entries: answer.posts.map(toEntry),
      nextCursor: answer.nextCursor,
      follow: canFollow(answer.user.id, context.viewerId)
        ? spawn('follow', {
            id: 'follow',
            input: {
              userId: answer.user.id,
              following: answer.user.isFollowing,
              requested: answer.user.requested,
              privateAccount: answer.user.privateAccount,
              followers: answer.user.stats.followers,
              messages: PROFILE_FOLLOW_MESSAGES,
            },
          })
        : null,
    })),
    setError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
    selectTab: assign((_, tab: ProfileTab) => ({ tab, entries: [], nextCursor: null, listError: null })),
    setPosts: assign((_, answer: UserProfileResponse) => ({
      entries: answer.posts.map(toEntry),
      nextCursor: answer.nextCursor,
    })),
    addPosts: assign(({ context }, answer: UserProfileResponse) => ({
      entries: appendEntries(context.entries, answer.posts.map(toEntry)),
      nextCursor: answer.nextCursor,
    })),
    /** The member's new post, on top of the tab it belongs to, and in the posts count. */
    showCreated: assign(({ context }, post: Post) => ({
      entries: belongsToTab(post, context.tab) ? prependEntries(context.entries, [toEntry(post)]) : context.entries,
      user: context.user ? withPostCount(context.user, 1) : context.user,
    })),
    /** A deleted post leaves the list; it leaves the count when it was one of the member's own (not a repost or a like). */
    forget: assign(({ context }, id: string) => {
      const entry = context.entries.find((e) => e.id === id)
      const own = entry !== undefined && entry.repostedBy === null && context.tab !== 'likes'
      return {
        entries: removeEntry(context.entries, id),
        user: context.user && own ? withPostCount(context.user, -1) : context.user,
      }
    }),
    setListError: assign((_, message: string) => ({ listError: message })),
    clearListError: assign({ listError: null }),
    setUploading: assign((_, image: ProfileImage | null) => ({ uploading: image })),
    applyImages: assign(({ context }, me: CurrentUser) => ({
      user: context.user ? { ...context.user, avatar: me.avatar, banner: me.banner } : context.user,
    })),
    // The whole fresh member, so the shell's avatar (and anything else the session shows) is current.
    tellSession: sendTo(
      ({ context }) => context.session,
      (_, me: CurrentUser) => ({ type: 'session.user.updated' as const, user: me }),
    ),
    notifySuccess: ({ system }, message: string) => showToast(system, 'success', message),
    notifyFailure: ({ system }, message: string) => showToast(system, 'error', message),
  },
  guards: {
    isNotFound: (_, error: unknown) => isApiError(error) && error._tag === 'NotFound',
    isOwner: ({ context }) => isOwnProfile(context.user, context.viewerId),
    isOtherTab: ({ context }, tab: ProfileTab) => tab !== context.tab,
    isTheirs: ({ context }, post: Post) => post.author.id === context.user?.id,
    hasMore: ({ context }) => context.nextCursor !== null,
  },
}).createMachine({
  id: 'profile',
  context: ({ input }) => ({
    ...input,
    user: null,
    follow: null,
    tab: 'posts',
    entries: [],
    nextCursor: null,
    error: null,
    listError: null,
    uploading: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      entry: 'clearError',
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        input: ({ context }) => ({ username: context.username, tab: context.tab }),
        onDone: {
          target: 'loaded',
          actions: [
            { type: 'storePosts', params: ({ event }) => event.output },
            { type: 'setProfile', params: ({ event }) => event.output },
          ],
        },
        onError: [
          {
            guard: { type: 'isNotFound', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            target: 'notFound',
          },
          {
            target: 'error',
            actions: { type: 'setError', params: ({ event }) => describeError(event.error, PROFILE_LOAD_FAILED) },
          },
        ],
      },
    },
    notFound: {},
    error: {
      on: { 'profile.retry': { target: 'loading' } },
    },
    loaded: {
      type: 'parallel',
      invoke: { id: 'watchPosts', src: 'watchPosts', input: ({ context }) => ({ posts: context.posts }) },
      on: {
        'post.created': {
          guard: { type: 'isTheirs', params: ({ event }) => event.post },
          actions: { type: 'showCreated', params: ({ event }) => event.post },
        },
        'post.deleted': { actions: { type: 'forget', params: ({ event }) => event.id } },
      },
      states: {
        list: {
          initial: 'ready',
          on: {
            // From any list state: a new tab cancels whatever the old one was loading (the invoke stops on exit).
            // `reenter` restarts `switching` even when it is already active, so a quick second click never gets the
            // first tab's answer.
            'profile.tab.select': {
              guard: { type: 'isOtherTab', params: ({ event }) => event.tab },
              target: '.switching',
              reenter: true,
              actions: { type: 'selectTab', params: ({ event }) => event.tab },
            },
          },
          states: {
            ready: {
              on: { 'profile.more': { guard: 'hasMore', target: 'loadingMore' } },
            },
            switching: {
              tags: ['listLoading'],
              entry: 'clearListError',
              invoke: {
                id: 'loadPosts',
                src: 'loadPosts',
                input: ({ context }) => ({ username: context.username, tab: context.tab }),
                onDone: {
                  target: 'ready',
                  actions: [
                    { type: 'storePosts', params: ({ event }) => event.output },
                    { type: 'setPosts', params: ({ event }) => event.output },
                  ],
                },
                onError: {
                  target: 'failed',
                  actions: {
                    type: 'setListError',
                    params: ({ event }) => describeError(event.error, POSTS_LOAD_FAILED),
                  },
                },
              },
            },
            loadingMore: {
              tags: ['busy'],
              entry: 'clearListError',
              invoke: {
                id: 'loadPosts',
                src: 'loadPosts',
                input: ({ context }) => ({ username: context.username, tab: context.tab, cursor: context.nextCursor }),
                onDone: {
                  target: 'ready',
                  actions: [
                    { type: 'storePosts', params: ({ event }) => event.output },
                    { type: 'addPosts', params: ({ event }) => event.output },
                  ],
                },
                onError: {
                  target: 'moreFailed',
                  actions: {
                    type: 'setListError',
                    params: ({ event }) => describeError(event.error, POSTS_LOAD_FAILED),
                  },
                },
              },
            },
            /** The tab's first page failed: its reason and Retry. */
            failed: {
              on: { 'profile.list.retry': { target: 'switching' } },
            },
            /** A later page failed: the posts so far stay, with Retry under them. */
            moreFailed: {
              on: { 'profile.list.retry': { target: 'loadingMore' } },
            },
          },
        },
        upload: {
          initial: 'idle',
          states: {
            idle: {
              entry: { type: 'setUploading', params: null },
              on: {
                'profile.avatar.upload': { guard: 'isOwner', target: 'uploading' },
                'profile.banner.upload': { guard: 'isOwner', target: 'uploading' },
              },
            },
            /** One image at a time (the other camera button waits); `context.uploading` says which. */
            uploading: {
              tags: ['uploading'],
              entry: { type: 'setUploading', params: ({ event }) => imageUpload(event).image },
              invoke: {
                id: 'uploadImage',
                src: 'uploadImage',
                input: ({ event }) => imageUpload(event),
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'applyImages', params: ({ event }) => event.output },
                    { type: 'tellSession', params: ({ event }) => event.output },
                    {
                      type: 'notifySuccess',
                      params: ({ context }) => (context.uploading === 'banner' ? BANNER_UPDATED : AVATAR_UPDATED),
                    },
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: { type: 'notifyFailure', params: ({ event }) => serverMessageOr(event.error, UPLOAD_FAILED) },
                },
              },
            },
          },
        },
      },
    },
  },
})

export type ProfileMachine = typeof profileMachine
