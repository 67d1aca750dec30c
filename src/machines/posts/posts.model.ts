import type { Post, UserSummary } from '../../api/posts.calls'

// Pure helpers of the post cache (posts.machine.ts): entities by id, and what a reaction changes optimistically.
// Kept apart from the machine so they read (and test) as plain functions; what a member may do with a post is in
// posts.rules.ts.

/** A row of a list of posts: the post's id, and who reposted it when that is why it is in this list. */
export interface PostEntry {
  readonly id: string
  readonly repostedBy: UserSummary | null
}

export type Reaction = 'like' | 'repost'

/** What a reaction showed before the optimistic change, to put back if the server refuses. */
export interface ReactionBefore {
  readonly active: boolean
  readonly count: number
}

export type Entities = Readonly<Record<string, Post>>

/** A post without list-specific fields (a FeedPost's `repostedBy` belongs to the list row, not to the post). */
export function toPost(post: Post & { repostedBy?: unknown }): Post {
  const { repostedBy: _repostedBy, ...rest } = post
  return rest
}

export function toEntry(post: Post & { repostedBy?: UserSummary | null }): PostEntry {
  return { id: post.id, repostedBy: post.repostedBy ?? null }
}

export function readReaction(post: Post, reaction: Reaction): ReactionBefore {
  return reaction === 'like'
    ? { active: post.liked, count: post.likeCount }
    : { active: post.reposted, count: post.repostCount }
}

export function writeReaction(post: Post, reaction: Reaction, value: ReactionBefore): Post {
  return reaction === 'like'
    ? { ...post, liked: value.active, likeCount: value.count }
    : { ...post, reposted: value.active, repostCount: value.count }
}

/** The optimistic flip: active toggles and the count follows (never below zero). */
export function flipped(value: ReactionBefore): ReactionBefore {
  return { active: !value.active, count: Math.max(0, value.count + (value.active ? -1 : 1)) }
}

/**
 * Stores posts from a server answer. A reaction still waiting for the server keeps its optimistic value: the page
 * may have been read before the click reached the server.
 */
export function upsert(
  entities: Entities,
  posts: ReadonlyArray<Post>,
  pending: Readonly<Record<Reaction, Readonly<Record<string, ReactionBefore>>>>,
  bookmarking: Readonly<Record<string, boolean>> = {},
): Entities {
  if (posts.length === 0) return entities
  const next: Record<string, Post> = { ...entities }
  for (const incoming of posts) {
    let post = toPost(incoming)
    const current = entities[post.id]
    for (const reaction of ['like', 'repost'] as const) {
      if (current && pending[reaction][post.id]) post = writeReaction(post, reaction, readReaction(current, reaction))
    }
    if (current && bookmarking[post.id] !== undefined) post = { ...post, bookmarked: current.bookmarked }
    next[post.id] = post
  }
  return next
}

export function without<T>(record: Readonly<Record<string, T>>, id: string): Record<string, T> {
  const { [id]: _gone, ...rest } = record
  return rest
}

/** New rows first, then the old ones that are not among them (a list shows a post at most once). */
export function prependEntries(entries: ReadonlyArray<PostEntry>, added: ReadonlyArray<PostEntry>): PostEntry[] {
  const ids = new Set(added.map((e) => e.id))
  return [...added, ...entries.filter((e) => !ids.has(e.id))]
}

/** Old rows, then the new ones not already shown (pages can overlap when posts arrive or vanish between them). */
export function appendEntries(entries: ReadonlyArray<PostEntry>, added: ReadonlyArray<PostEntry>): PostEntry[] {
  const ids = new Set(entries.map((e) => e.id))
  const fresh: PostEntry[] = []
  for (const entry of added) {
    if (ids.has(entry.id)) continue
    ids.add(entry.id)
    fresh.push(entry)
  }
  return fresh.length === 0 ? [...entries] : [...entries, ...fresh]
}

export function removeEntry(entries: ReadonlyArray<PostEntry>, id: string): PostEntry[] {
  return entries.filter((e) => e.id !== id)
}

/**
 * The rows Home keeps once a member is muted (docs/product.md, "Mutes"), as the server's next read would: their own
 * posts go (`ids`, the muted member's posts the cache holds) unless a repost by someone else brought them here, and
 * their reposts of anyone's posts go too.
 */
/** The rows left once a member is blocked: their posts were announced deleted; here their reposts go. */
export function withoutRepostsBy(entries: ReadonlyArray<PostEntry>, memberId: string): PostEntry[] {
  return entries.filter((e) => e.repostedBy?.id !== memberId)
}

export function withoutMuted(entries: ReadonlyArray<PostEntry>, authorId: string, ids: ReadonlyArray<string>): PostEntry[] {
  const theirs = new Set(ids)
  return entries.filter((e) => (e.repostedBy ? e.repostedBy.id !== authorId : !theirs.has(e.id)))
}
