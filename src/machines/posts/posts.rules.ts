import type { Post } from '../../api/posts.calls'

// What a post card shows and who may do what with a post (docs/product.md, "Post card"), as plain functions: the post cache's guards
// (posts.machine.ts) and the selectors the card reads (posts.selectors.ts) both ask them, so the card only reads
// booleans.

/** What the member chose about sensitive posts: this post revealed ('Show anyway'), or the setting that shows them all. */
export interface SensitiveChoice {
  revealed: boolean
  /** Settings -> Privacy & Safety -> Show sensitive content. */
  showsSensitive: boolean
}

/**
 * A post marked sensitive shows a notice (its reason, or a default line, and 'Show anyway') instead of its text and
 * media, until the member reveals it; with 'Show sensitive content' on, it shows at once.
 */
export function isHiddenAsSensitive(post: Pick<Post, 'sensitive'>, { revealed, showsSensitive }: SensitiveChoice): boolean {
  return post.sensitive && !revealed && !showsSensitive
}

/** The member's own post: its menu offers Edit and Delete; anyone else's offers Report and Block User. */
export function isOwnPost(post: Pick<Post, 'author'>, viewerId: string | null): boolean {
  return viewerId !== null && post.author.id === viewerId
}

/** Only public posts can be reposted (the server answers 403 otherwise); undoing one's repost is always allowed. */
export function canBeReposted(post: Pick<Post, 'visibility' | 'reposted'>): boolean {
  return post.visibility === 'public' || post.reposted
}
