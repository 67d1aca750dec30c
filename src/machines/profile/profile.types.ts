import type { ProfileTab, UserProfile } from '../../api/users.calls'
import type { SessionRef } from '../session/session-ref'
import type { PostsRef } from '../posts/posts.machine'
import type { PostEntry } from '../posts/posts.model'
import type { PostsNews } from '../posts/watch-posts'
import type { FollowRef } from '../follow/follow.machine'

// The profile actor's shapes, apart from the machine so views and tests can name them without the machine's weight.

export interface ProfileInput {
  username: string
  /** The signed-in member: on their own profile they get the camera buttons instead of Follow. */
  viewerId: string
  /** Told about a new avatar or banner (`session.user.updated`), so the shell shows it at once. */
  session: SessionRef
  /** The post cache: the tabs' posts are stored there, and it tells the list about created and deleted posts. */
  posts: PostsRef
}

/** The owner's two pictures, each replaced with its camera button. */
export type ProfileImage = 'avatar' | 'banner'

export interface ProfileContext extends ProfileInput {
  user: UserProfile | null
  /** The visitor's Follow/Unfollow button and the exact followers count; null on one's own profile. */
  follow: FollowRef | null
  tab: ProfileTab
  /** The open tab's rows (post ids, and who reposted them); the posts themselves are in the post cache. */
  entries: PostEntry[]
  nextCursor: string | null
  /** Why the profile itself could not be loaded. */
  error: string | null
  /** Why the open tab's posts could not be loaded. */
  listError: string | null
  /** The image on its way to the server, while one is. */
  uploading: ProfileImage | null
}

export type ProfileEvent =
  | { type: 'profile.retry' }
  | { type: 'profile.tab.select'; tab: ProfileTab }
  | { type: 'profile.more' }
  | { type: 'profile.list.retry' }
  | { type: 'profile.avatar.upload'; file: File }
  | { type: 'profile.banner.upload'; file: File }
  | PostsNews
