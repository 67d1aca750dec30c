import type { SnapshotFrom } from 'xstate'
import type { PostsMachine } from './posts.machine'
import { canBeReposted, isHiddenAsSensitive, isOwnPost } from './posts.rules'

// Narrow reads of the post cache for one card (one useSelector each), so a like re-renders that card only. The card's
// rules (posts.rules.ts) are answered here, so the card reads booleans.
type PostsSnapshot = SnapshotFrom<PostsMachine>

export const selectPost = (id: string) => (s: PostsSnapshot) => s.context.entities[id]
export const selectIsDeleting = (id: string) => (s: PostsSnapshot) => s.context.deleting[id] === true

/** Whether the card shows the sensitive notice instead of the post; `showsSensitive` is the member's setting. */
export const selectIsHiddenAsSensitive = (id: string, showsSensitive: boolean) => (s: PostsSnapshot) => {
  const post = s.context.entities[id]
  return post !== undefined && isHiddenAsSensitive(post, { revealed: s.context.revealed[id] === true, showsSensitive })
}

/** The post page's notice: the server's `muted` ('@ann', a keyword, a domain) until 'Show anyway', else null. */
export const selectMutedNotice = (id: string) => (s: PostsSnapshot) => {
  const muted = s.context.entities[id]?.muted
  return muted !== undefined && !s.context.shownMuted[id] ? muted : null
}

/** Whether the viewer wrote the post (Edit and Delete in its menu, rather than Report and Block User). */
export const selectIsOwnPost = (id: string, viewerId: string | null) => (s: PostsSnapshot) => {
  const post = s.context.entities[id]
  return post !== undefined && isOwnPost(post, viewerId)
}

/** Whether the repost button is enabled. */
export const selectCanBeReposted = (id: string) => (s: PostsSnapshot) => {
  const post = s.context.entities[id]
  return post !== undefined && canBeReposted(post)
}
