import type { Post } from '../../api/posts.calls'
import type { ProfileTab } from '../../api/users.calls'

// A profile page's rules (docs/product.md, "Profiles"), as plain functions the profile machine's guards and actions and
// its selectors share.

/** The member's own profile: camera buttons on the avatar and banner, Edit profile, no Follow button. */
export function isOwnProfile(user: { id: string } | null, viewerId: string): boolean {
  return user !== null && user.id === viewerId
}

/** Which tab a post the member just wrote shows on (the server's rules, server/modules/posts/profile-queries.ts). */
export function belongsToTab(post: Post, tab: ProfileTab): boolean {
  if (tab === 'posts') return post.replyTo === null
  if (tab === 'replies') return post.replyTo !== null
  if (tab === 'media') return post.media.length > 0
  return false
}

/** What a restricted profile shows instead of its tabs (docs/product.md, "Private accounts and follow requests"). */
export const PRIVATE_PROFILE_NOTICE = { title: 'This account is private', hint: 'Follow to see their posts' } as const
