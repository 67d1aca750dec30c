import type { ProfilePost, UserProfile, UserProfileResponse } from '../../../src/api/users.calls'
import { robin } from './fixtures'

// Profiles and posts for the profile actor's tests: Ann (someone else) and Robin (the viewer, on their own profile).

export const ann: UserProfile = {
  id: '0190a6b2-0000-7000-8000-0000000000a1',
  username: 'ann',
  displayName: 'Ann Estuary',
  avatar: null,
  banner: null,
  bio: 'Wrens and reeds',
  verified: true,
  privateAccount: false,
  isAdmin: false,
  createdAt: '2026-03-02T10:00:00.000Z',
  isFollowing: false,
  requested: false,
  muted: false,
  restricted: false,
  stats: { following: 4, followers: 7, posts: 3 },
}

export const robinProfile: UserProfile = {
  id: robin.id,
  username: robin.username,
  displayName: robin.displayName,
  avatar: null,
  banner: null,
  bio: '',
  verified: false,
  privateAccount: false,
  isAdmin: false,
  createdAt: robin.createdAt,
  isFollowing: false,
  requested: false,
  muted: false,
  restricted: false,
  stats: { following: 1, followers: 0, posts: 0 },
  contentSettings: robin.contentSettings,
}

const author = (user: UserProfile) => ({
  id: user.id,
  username: user.username,
  displayName: user.displayName,
  avatar: user.avatar,
  verified: user.verified,
})

export function post(id: string, fields: Partial<ProfilePost> = {}, by: UserProfile = ann): ProfilePost {
  return {
    id,
    author: author(by),
    content: `Post ${id}`,
    media: [],
    mentions: [],
    hashtags: [],
    visibility: 'public',
    sensitive: false,
    sensitiveReason: null,
    replyTo: null,
    createdAt: '2026-03-03T10:00:00.000Z',
    edited: false,
    editedAt: null,
    likeCount: 0,
    repostCount: 0,
    replyCount: 0,
    views: 0,
    liked: false,
    reposted: false,
    bookmarked: false,
    repostedBy: null,
    ...fields,
  }
}

export const photo = {
  id: 'm1',
  type: 'image' as const,
  url: '/media/m1.webp',
  thumbnailUrl: '/media/m1-thumb.webp',
  alt: 'Low tide',
  width: 800,
  height: 600,
}

/** GET /users/ann (tab posts): the profile and a full first page with a cursor. */
export const annFirstPage: UserProfileResponse = {
  user: ann,
  posts: [post('p1'), post('p2', { repostedBy: author(ann) }, robinProfile)],
  nextCursor: 'cursor-posts-2',
}

export const robinFirstPage: UserProfileResponse = { user: robinProfile, posts: [], nextCursor: null }

/** A tab's first page (the replies tab, as the server answers it). */
export const repliesPage: UserProfileResponse = {
  user: ann,
  posts: [post('r1', { replyTo: 'x1' })],
  nextCursor: null,
}

/** The next page of the open tab. */
export const morePage: UserProfileResponse = { user: ann, posts: [post('p3')], nextCursor: null }
